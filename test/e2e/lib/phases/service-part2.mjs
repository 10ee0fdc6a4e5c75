// The phase of what FacilitaPay's public clients send beyond the docs (issue "the real FacilitaPay,
// part 2"): a card charged once (approved, and declined by the sandbox's declining card) and one
// previewed, Colombia's PSE with the bank from the list, Mexico's dynamic CLABE without a source
// account, each with the user's Metadata beside the node's key, and Colombian (NIT) and Mexican
// (RFC) companies; then PSE By ID while FacilitaPay cannot give the bank list. Needs
// `ctx.subjectId` from the first phase (a complete person: card and PSE need e-mail, phone and
// address). Uses jest's global `expect`.
import { actionStep, sandboxControl } from '../n8n-e2e.mjs';
import { PAY_IN_ACCOUNT_IDS } from '../../../../sandbox/domain/localPayIns.mjs';
import { ACCOUNTS, expectRunOk } from './shared.mjs';
import { companyParameters } from '../../../fixtures/subjects.js';
import { cardPaymentParameters, psePaymentParameters } from '../../../fixtures/transactions.js';

/* global expect */

const CARD = '4111111111111111';
const DECLINED_CARD = '4000000000000002';

/** A card payment step of 50.00 BRL with `cardNumber`, the order's number as metadata. @param {string} name @param {string} subjectId @param {string} cardNumber */
function cardStep(name, subjectId, cardNumber) {
	return actionStep(
		name,
		cardPaymentParameters(subjectId, ACCOUNTS.brlPixExclusive, {
			value: '50.00',
			cardNumber,
			metadata: `={{ JSON.stringify({ order_id: '${name}' }) }}`,
		}),
	);
}

/** A PSE payment step of 200000.00 COP to the bank `bank` (a resource locator). @param {string} name @param {string} subjectId @param {object} bank */
function pseStep(name, subjectId, bank) {
	return actionStep(
		name,
		psePaymentParameters(subjectId, {
			financialInstitutionCode: bank,
			metadata: '{"order_id": "pse-77"}',
		}),
	);
}

/**
 * Card payments, PSE, SPEI and NIT and RFC companies through the node in a real n8n.
 * @param {import('./shared.mjs').PhaseOptions} options
 */
export async function servicePart2Operations({ sb, runPhase, ctx, covered }) {
	expect(ctx.subjectId).toBeDefined();
	const { run, log, out } = await runPhase([
		cardStep('Card Approved', ctx.subjectId, CARD),
		cardStep('Card Declined', ctx.subjectId, DECLINED_CARD),
		actionStep('Card Preview', {
			...cardStep('x', ctx.subjectId, CARD).parameters,
			previewOnly: true,
		}),
		pseStep('PSE Payment', ctx.subjectId, { __rl: true, mode: 'list', value: '1007' }),
		actionStep('SPEI CLABE', {
			resource: 'transaction',
			operation: 'createSpeiPayment',
			subjectId: ctx.subjectId,
			value: '1500.00',
			exchangeCurrency: 'MXN',
			toBankAccountId: PAY_IN_ACCOUNT_IDS.mxnCashIn,
			paymentDescription: 'Pedido 9',
			metadata: '{"pedido": 9}',
		}),
		actionStep(
			'NIT Company',
			companyParameters({
				documentType: 'nit',
				documentNumber: '900.123.456-8',
				socialName: 'Ejemplo Colombia S.A.S.',
				fiscalCountry: 'Colombia',
			}),
		),
		actionStep(
			'RFC Company',
			companyParameters({
				documentType: 'rfc',
				documentNumber: 'EJM-010203-AB1',
				socialName: 'Ejemplo México S.A. de C.V.',
				fiscalCountry: 'Mexico',
			}),
		),
	]);
	expectRunOk(run);
	const posted = log.filter((r) => r.method === 'POST' && /\/api\/v1\/transactions$/.test(r.url));

	const [approved] = out('Card Approved');
	expect(approved).toMatchObject({
		status: 'identified',
		approved: true,
		value: '50.00',
		// The user's Metadata and the node's own key, one object, as FacilitaPay returned it.
		meta: { order_id: 'Card Approved', n8n_facilitapay_ref: expect.stringMatching(/^run:/) },
	});
	const [declined] = out('Card Declined');
	expect(declined).toMatchObject({
		status: 'canceled',
		canceled_reason: 'card_declined',
		approved: false,
	});
	const cardBodies = posted.filter((r) => r.body?.transaction?.from_credit_card);
	expect(cardBodies).toHaveLength(2);
	expect(cardBodies[0].body.transaction.from_credit_card).toMatchObject({
		card_expiration_date: '12/2034',
		card_brand: 'visa',
		fullname: 'Maria da Silva',
	});
	expect(JSON.stringify([approved, declined])).not.toContain(CARD);
	const [preview] = out('Card Preview');
	expect(preview).toMatchObject({
		preview: true,
		path: '/transactions',
		body: {
			transaction: {
				from_credit_card: { card_number: '**** **** **** 1111', card_security_code: '***' },
			},
		},
	});
	expect(JSON.stringify(preview)).not.toContain(CARD);
	covered.add('transaction.createCardPayment');

	const [pse] = out('PSE Payment');
	expect(pse).toMatchObject({
		status: 'pending',
		currency: 'COP',
		payment_url: expect.stringMatching(/\/_sandbox\/pse\//),
		payment_url_valid_until: expect.stringMatching(/Z$/),
		from_pse: { bank_name: 'BANCOLOMBIA' },
		meta: { order_id: 'pse-77', n8n_facilitapay_ref: expect.stringMatching(/^run:/) },
	});
	const pseBody = posted.find((r) => r.body?.transaction?.from_pse)?.body.transaction;
	expect(pseBody).not.toHaveProperty('from_bank_account_id');
	covered.add('transaction.createPsePayment');

	const [spei] = out('SPEI CLABE');
	expect(spei).toMatchObject({
		status: 'pending',
		dynamic_clabe: expect.stringMatching(/^\d{18}$/),
		dynamic_clabe_valid_until: expect.stringMatching(/Z$/),
		meta: { pedido: 9, n8n_facilitapay_ref: expect.stringMatching(/^run:/) },
	});
	const speiBody = posted.find((r) => r.body?.transaction?.from_spei)?.body.transaction;
	expect(speiBody).toMatchObject({ from_spei: { dynamic_clabe: true } });
	expect(speiBody).not.toHaveProperty('from_bank_account_id');
	covered.add('transaction.createSpeiPayment');

	const [company] = out('NIT Company');
	expect(company).toMatchObject({ document_type: 'nit', document_number: '9001234568' });
	const [rfcCompany] = out('RFC Company');
	expect(rfcCompany).toMatchObject({ document_type: 'rfc', document_number: 'EJM010203AB1' });

	// FacilitaPay cannot give the PSE bank list: the bank By ID still pays.
	await sandboxControl('POST', '/pse/banks', { listed: false }, sb.state);
	try {
		const byId = await runPhase([
			pseStep('PSE By ID', ctx.subjectId, { __rl: true, mode: 'id', value: '1051' }),
		]);
		expectRunOk(byId.run);
		const [paid] = byId.out('PSE By ID');
		expect(paid).toMatchObject({
			payment_url: expect.stringMatching(/\/_sandbox\/pse\//),
			from_pse: { financial_institution_code: '1051', bank_name: 'DAVIVIENDA' },
		});
	} finally {
		await sandboxControl('POST', '/pse/banks', { listed: true }, sb.state);
	}
}
