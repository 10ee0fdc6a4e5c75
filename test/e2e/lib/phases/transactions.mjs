// The transactions of the first phase (subjects.mjs runs them between the subject's steps and its
// listings): a dynamic PIX the customer pays, its refund, a second PIX whose wire the wires phase
// corrects, a boleto with its PDF then cancelled, a payout and a checkout. Uses jest's global
// `expect`.
import { actionStep, httpStep, nodeBinary } from '../n8n-e2e.mjs';
import { ACCOUNTS, controlUrl, one, ref } from './shared.mjs';

/* global expect */

/**
 * The transactions' steps, in the order they run.
 * @param {import('./subjects.mjs').SubjectInput} input
 * @param {{sandboxUrl: string}} sb
 */
export function transactionSteps(input, sb) {
	return [...pixSteps(input, sb), ...boletoSteps(input), ...payoutAndCheckoutSteps()];
}

/**
 * What the sandbox received and the nodes answered, for each transaction; returns the IDs the
 * subject's listing must show. Records the wire's PIX and the checkout in `ctx`.
 * @param {import('./shared.mjs').PhaseRun} phase
 * @param {import('./subjects.mjs').SubjectInput} input
 * @param {string} subjectId
 */
export function checkTransactions(phase, input, subjectId) {
	// Every POST /transactions of the phase: the PIXs, the boleto and the payout.
	const transactionRequests = phase.log.filter(
		(r) => r.method === 'POST' && /\/api\/v1\/transactions$/.test(r.url),
	);
	const pixId = checkPix(phase, input, subjectId, transactionRequests);
	const boletoId = checkBoleto(phase, input, subjectId, transactionRequests);
	const payoutId = checkPayoutAndCheckout(phase, subjectId, transactionRequests);
	return { pixId, boletoId, payoutId };
}

/**
 * A PIX paid then refunded, and a PIX paid whose wire the wires phase corrects.
 * @param {import('./subjects.mjs').SubjectInput} input
 * @param {{sandboxUrl: string}} sb
 */
function pixSteps({ pixExpiry }, sb) {
	return [
		actionStep('Create PIX', {
			resource: 'transaction',
			operation: 'createDynamicPix',
			subjectId: ref('Create Subject'),
			value: '150.00',
			dynamicPixExpiresAt: pixExpiry,
			fromBankAccountId: ACCOUNTS.brlPixExclusive,
			toBankAccountId: ACCOUNTS.usdDestination,
			exchangeCurrency: 'USD',
		}),
		httpStep('Customer Pays PIX', {
			url: controlUrl(sb, `/transactions/{{ $('Create PIX').first().json.id }}/pay`),
			body: { success: true },
		}),
		actionStep('Get PIX', {
			resource: 'transaction',
			operation: 'get',
			transactionId: ref('Create PIX'),
			simplify: false,
		}),
		actionStep('Refund PIX', {
			resource: 'transaction',
			operation: 'refund',
			transactionId: ref('Create PIX'),
		}),
		actionStep('Get Refund', {
			resource: 'transaction',
			operation: 'getRefund',
			transactionId: ref('Create PIX'),
			refundId: ref('Refund PIX'),
		}),
		actionStep('Create PIX for Wire', {
			resource: 'transaction',
			operation: 'createDynamicPix',
			subjectId: ref('Create Subject'),
			value: '200.00',
			dynamicPixExpiresAt: pixExpiry,
			fromBankAccountId: ACCOUNTS.brlPixExclusive,
			toBankAccountId: ACCOUNTS.usdDestination,
			exchangeCurrency: 'USD',
		}),
		httpStep('Customer Pays PIX for Wire', {
			url: controlUrl(sb, `/transactions/{{ $('Create PIX for Wire').first().json.id }}/pay`),
			body: { success: true },
		}),
	];
}

/** A boleto, its PDF (then read back as base64), then cancelled. @param {import('./subjects.mjs').SubjectInput} input */
function boletoSteps({ boletoDue }) {
	return [
		actionStep('Create Boleto', {
			resource: 'transaction',
			operation: 'createBoleto',
			subjectId: ref('Create Subject'),
			value: '80.00',
			currency: 'BRL',
			exchangeCurrency: 'USD',
			expireAt: boletoDue,
			toBankAccountId: ACCOUNTS.usdDestination,
		}),
		actionStep('Boleto PDF', {
			resource: 'transaction',
			operation: 'getBoletoPdf',
			transactionId: ref('Create Boleto'),
			binaryPropertyName: 'boleto',
		}),
		{
			name: 'Boleto PDF as Base64',
			type: 'n8n-nodes-base.extractFromFile',
			typeVersion: 1,
			parameters: {
				operation: 'binaryToPropery',
				binaryPropertyName: 'boleto',
				destinationKey: 'pdf_base64',
				options: {},
			},
		},
		actionStep('Cancel Boleto', {
			resource: 'transaction',
			operation: 'cancel',
			transactionId: ref('Create Boleto'),
		}),
	];
}

function payoutAndCheckoutSteps() {
	return [
		actionStep('Create Payout', {
			resource: 'transaction',
			operation: 'createPayout',
			subjectId: ref('Create Subject'),
			value: '10.00',
			currency: 'USD',
			exchangeCurrency: 'BRL',
			fromBankAccountId: ACCOUNTS.usdCashOut,
			toBankAccountId: ACCOUNTS.brlCustomer,
		}),
		// Support's question "did order E2E-NONE pay?": a key no payment carries.
		actionStep('Find By Key', {
			resource: 'transaction',
			operation: 'findByIdempotencyKey',
			subjectId: ref('Create Subject'),
			lookupKey: 'E2E-NONE',
		}),
		actionStep('Create Checkout', {
			resource: 'transaction',
			operation: 'createCheckout',
			subjectId: ref('Create Subject'),
			value: '99.90',
			currency: 'BRL',
			exchangeCurrency: 'USD',
			toBankAccountId: ACCOUNTS.usdDestination,
		}),
	];
}

/**
 * Dynamic PIX: the QR code the customer pays, then Get shows it identified, then a refund.
 * Returns the PIX's ID.
 * @param {import('./shared.mjs').PhaseRun} phase
 * @param {import('./subjects.mjs').SubjectInput} input
 * @param {string} subjectId
 * @param {any[]} transactionRequests
 */
function checkPix({ log, out, ctx, covered }, { pixExpiry }, subjectId, transactionRequests) {
	const [pix] = out('Create PIX');
	expect(pix).toMatchObject({
		id: expect.any(String),
		status: 'pending',
		value: '150.00',
		pix_code_valid: true,
	});
	expect(pix.pix_code).toMatch(/^000201/);
	expect(transactionRequests[0].body.transaction).toMatchObject({
		subject_id: subjectId,
		value: '150.00',
		currency: 'BRL',
		exchange_currency: 'USD',
		use_dynamic_pix: true,
		dynamic_pix_expires_at: pixExpiry,
		from_bank_account_id: ACCOUNTS.brlPixExclusive,
		to_bank_account_id: ACCOUNTS.usdDestination,
	});
	covered.add('transaction.createDynamicPix');
	expect(out('Get PIX')).toEqual([expect.objectContaining({ id: pix.id, status: 'identified' })]);
	covered.add('transaction.get');
	expect(out('Refund PIX')).toEqual([
		expect.objectContaining({ id: pix.id, status: 'canceled', canceled_reason: 'refunded' }),
	]);
	one(log, 'GET', new RegExp(`/api/v1/transactions/${pix.id}/refund_received_transaction$`));
	covered.add('transaction.refund');
	const [refunded] = out('Refund PIX');
	expect(out('Get Refund')).toEqual([
		expect.objectContaining({ id: refunded.id, status: 'canceled', transaction_id: pix.id }),
	]);
	one(
		log,
		'GET',
		new RegExp(`/api/v1/transactions/${pix.id}/refund_received_transaction/${refunded.id}$`),
	);
	covered.add('transaction.getRefund');
	ctx.wirePixId = out('Create PIX for Wire')[0].id;
	return pix.id;
}

/**
 * Boleto: created, its PDF is a real binary in n8n, then cancelled while pending. Returns the
 * boleto's ID.
 * @param {import('./shared.mjs').PhaseRun} phase
 * @param {import('./subjects.mjs').SubjectInput} input
 * @param {string} subjectId
 * @param {any[]} transactionRequests
 */
function checkBoleto({ run, log, out, covered }, { boletoDue }, subjectId, transactionRequests) {
	const [boleto] = out('Create Boleto');
	expect(boleto).toMatchObject({ status: 'pending', value: '80.00' });
	expect(boleto.bar_code).toMatch(/^\d{44}$/);
	expect(boleto.digital_line).toMatch(/^\d{47}$/);
	const boletoReq = transactionRequests.find((r) => r.body.transaction?.from_boleto);
	expect(boletoReq.body.transaction).toMatchObject({
		subject_id: subjectId,
		value: '80.00',
		currency: 'BRL',
		from_boleto: { expire_at: boletoDue },
	});
	covered.add('transaction.createBoleto');
	expect(out('Boleto PDF')).toEqual([
		{ transaction_id: boleto.id, file_name: `boleto-${boleto.id}.pdf`, size: expect.any(Number) },
	]);
	const binary = nodeBinary(run.runData, 'Boleto PDF');
	expect(binary?.boleto).toMatchObject({
		mimeType: 'application/pdf',
		fileName: `boleto-${boleto.id}.pdf`,
	});
	const [asBase64] = out('Boleto PDF as Base64');
	expect(Buffer.from(asBase64.pdf_base64, 'base64').subarray(0, 5).toString('latin1')).toBe(
		'%PDF-',
	);
	one(log, 'GET', new RegExp(`/api/v1/transactions/${boleto.id}/boleto_pdf$`));
	covered.add('transaction.getBoletoPdf');
	// Cancel outputs the void record the service answers (live docs), with the transaction's ID.
	expect(out('Cancel Boleto')).toEqual([
		expect.objectContaining({
			id: expect.any(String),
			transaction_id: boleto.id,
			status: 'canceled',
			reason: 'canceled_by_partner',
			transaction_kind: 'payment',
			bank_transaction: expect.objectContaining({ value: '80.00' }),
		}),
	]);
	expect(out('Cancel Boleto')[0].id).not.toBe(boleto.id);
	one(log, 'GET', new RegExp(`/api/v1/transactions/${boleto.id}/refund$`));
	covered.add('transaction.cancel');
	return boleto.id;
}

/**
 * Payout and checkout. Records the checkout in `ctx`; returns the payout's ID.
 * @param {import('./shared.mjs').PhaseRun} phase
 * @param {string} subjectId
 * @param {any[]} transactionRequests
 */
function checkPayoutAndCheckout({ log, out, ctx, covered }, subjectId, transactionRequests) {
	const [payout] = out('Create Payout');
	expect(payout).toMatchObject({ status: 'identified', value: '10.00', currency: 'USD' });
	expect(
		transactionRequests.find(
			(r) => r.body.transaction?.from_bank_account_id === ACCOUNTS.usdCashOut,
		)?.body.transaction,
	).toEqual({
		subject_id: subjectId,
		from_bank_account_id: ACCOUNTS.usdCashOut,
		to_bank_account_id: ACCOUNTS.brlCustomer,
		currency: 'USD',
		exchange_currency: 'BRL',
		value: '10.00',
		// The payment's identity travels with it (docs/money.md).
		meta: { n8n_facilitapay_ref: expect.stringMatching(/^run:/) },
	});
	covered.add('transaction.createPayout');
	expect(out('Find By Key')).toEqual([
		expect.objectContaining({ found: false, idempotencyKey: 'E2E-NONE' }),
	]);
	expect(out('Find By Key')[0].transactionsRead).toBeGreaterThanOrEqual(1);
	covered.add('transaction.findByIdempotencyKey');
	const [checkout] = out('Create Checkout');
	expect(checkout).toMatchObject({
		status: 'active',
		checkout_url: expect.stringContaining('/_sandbox/checkout/'),
	});
	expect(one(log, 'POST', /\/api\/v1\/transactions\/checkout$/).body).toEqual({
		subject_id: subjectId,
		to_bank_account_id: ACCOUNTS.usdDestination,
		currency: 'BRL',
		exchange_currency: 'USD',
		value: '99.90',
	});
	covered.add('transaction.createCheckout');
	ctx.checkoutId = checkout.checkout_id ?? checkout.id;
	return payout.id;
}
