/**
 * Transactions: dynamic PIX, boleto, payout, card checkout, static PIX / TED receipts, refunds,
 * and the exchange / wire step (with corrections).
 * Status machine: pending → identified → (exchanged) → (wired); pending|identified → canceled.
 */
import { randomUUID } from 'node:crypto';
import {
	Errors,
	isBlank,
	isDate,
	requireCurrency,
	requireMoney,
	requirePresent,
	toBool,
} from '../validation.mjs';
import { ApiError, check, invalid, notFound } from '../errors.mjs';
import { convertCents, formatCents, toCents } from '../money.mjs';
import { buildDynamicBrCode } from '../brcode.mjs';
import { buildBarcode, barcodeToDigitalLine, freeFieldFrom } from '../boleto.mjs';
import { isoSeconds } from '../clock.mjs';
import { ADDRESS_FIELDS } from './subjects.mjs';
import { ACCOUNT_IDS } from '../accounts.mjs';
import { readPixExpiry } from '../pixExpiry.mjs';
import { isLocalPayIn } from './localPayIns.mjs';

export const DEFAULT_PIX_EXPIRY_SECONDS = 3600;
export const WIRE_RETRY_SECONDS = 60;
export const CARD_CURRENCIES = ['BRL', 'MXN', 'COP', 'CLP'];
export const EXCHANGE_CURRENCIES = ['BRL', 'USD', 'EUR'];
export const WIRE_ERRORS = {
	AC03: 'Creditor account number invalid or missing',
	AC14: 'Creditor account type missing or invalid',
	CH11: 'Creditor identifier value incorrect',
	AG03: 'Transaction type not supported or authorised on the account',
};
export const CARD_SUBJECT_FIELDS = ['email', 'phone_number', ...ADDRESS_FIELDS];
/** How a card payment becomes identified: with its approval (default), or later, on demand. */
export const CARD_IDENTIFICATION = ['at_approval', 'later'];

/**
 * Amounts are strings with two decimals, except Chilean pesos, which have none (live docs:
 * `"15000"`, not `"15000.00"`). Computed in integer cents either way.
 * @param {string} value
 */
export function amountCents(value) {
	return value.includes('.') ? toCents(value) : BigInt(value) * 100n;
}

/** @param {bigint} cents @param {string} currency */
export function writeAmount(cents, currency) {
	return currency === 'CLP' ? (cents / 100n).toString() : formatCents(cents);
}

/** `value` in `from`, converted and written in `to`. @param {string} value */
function converted(value, from, to) {
	return writeAmount(convertCents(amountCents(value), from, to), to);
}

/**
 * `requireMoney`, but a CLP amount is a whole number ("15000"; "15000.00" is accepted and written
 * "15000"). @param {any} obj
 */
export function requireAmount(errors, obj, field, currency) {
	if (currency !== 'CLP') return requireMoney(errors, obj, field);
	const value = obj[field];
	if (isBlank(value)) return errors.add(field, "can't be blank");
	if (typeof value !== 'string' || !/^\d+(\.00)?$/.test(value))
		return errors.add(
			field,
			'must be a whole number of Chilean pesos as a string, e.g. "15000" (CLP has no decimals)',
		);
	if (/^0+(\.00)?$/.test(value)) return errors.add(field, 'must be greater than 0');
	obj[field] = value.replace(/\.00$/, '');
}

export function createTransactions(ctx) {
	const { state, clock } = ctx;

	function get(id) {
		const transaction = state.transactions.get(id);
		if (!transaction) throw notFound();
		return transaction;
	}

	function account(id) {
		return id ? (state.bankAccounts.get(id) ?? null) : null;
	}

	function view(transaction) {
		const out = {};
		for (const [key, value] of Object.entries(transaction))
			if (!key.startsWith('_')) out[key] = value;
		out.subject = transaction.subject_id
			? ctx.subjects.view(state.subjects.get(transaction.subject_id))
			: null;
		return out;
	}

	/** Common fields of a new transaction. */
	function base(kind, subject, fields) {
		const cleared = ctx.subjects.clearanceForNewPayment(subject);
		const forExchange = fields.currency !== fields.exchange_currency;
		const estimate = forExchange
			? converted(fields.value, fields.currency, fields.exchange_currency)
			: fields.value;
		return {
			id: randomUUID(),
			value: fields.value,
			status: 'pending',
			currency: fields.currency,
			exchange_currency: fields.exchange_currency,
			to_bank_account: account(fields.to_bank_account_id),
			from_bank_account: account(fields.from_bank_account_id),
			from_credit_card: fields.from_credit_card ?? null,
			subject_id: subject.id,
			subject_is_receiver: kind === 'payout',
			source_name: fields.source_name ?? subject.social_name,
			source_document_type: fields.source_document_type ?? subject.document_type,
			source_document_number: fields.source_document_number ?? subject.document_number,
			inserted_at: clock.iso(),
			for_exchange: forExchange,
			exchange_under_request: false,
			estimated_value_until_exchange: estimate,
			cleared,
			dynamic_pix_code: null,
			exchanged_value: null,
			exchange_id: null,
			wire_id: null,
			canceled_reason: null,
			canceled_at: null,
			paid_at: null,
			bank_transaction: fields.bank_transaction ?? null,
			meta: fields.meta ?? {},
			_kind: kind,
		};
	}

	function subjectRef(errors, id) {
		if (isBlank(id)) {
			errors.add('subject_id', "can't be blank");
			return null;
		}
		const subject = state.subjects.get(id);
		if (!subject) errors.add('subject_id', 'was not found');
		return subject ?? null;
	}

	function accountRef(errors, field, id) {
		if (isBlank(id)) {
			errors.add(field, "can't be blank");
			return null;
		}
		const account = state.bankAccounts.get(id);
		if (!account) errors.add(field, 'was not found');
		return account ?? null;
	}

	function destinationMatches(errors, to, exchangeCurrency, field = 'to_bank_account_id') {
		if (to && exchangeCurrency && to.currency !== exchangeCurrency) {
			errors.add(
				field,
				`currency (${to.currency}) must equal exchange_currency (${exchangeCurrency})`,
			);
		}
	}

	function subjectHas(errors, subject, fields, what) {
		if (!subject) return;
		const missing = fields.filter((field) => isBlank(subject[field]));
		if (missing.length) {
			errors.add(
				'subject_id',
				`the subject must have ${missing.join(', ')} registered for ${what}; update it with PUT /subject/people/:id`,
			);
		}
	}

	/** POST /transactions */
	function create(body) {
		const tx = body?.transaction;
		const errors = new Errors();
		if (!tx || typeof tx !== 'object' || Array.isArray(tx)) {
			errors.add('transaction', "can't be blank");
			check(errors);
		}
		if (tx.use_dynamic_pix !== undefined && tx.use_dynamic_pix !== null) {
			if (toBool(tx.use_dynamic_pix) !== true) {
				errors.add(
					'use_dynamic_pix',
					'must be true for a dynamic PIX (omit it for boleto and payout)',
				);
				check(errors);
			}
			return createDynamicPix(tx, errors);
		}
		if (tx.from_boleto !== undefined) return createBoleto(tx, errors);
		if (isLocalPayIn(tx, state)) return ctx.localPayIns.create(tx);
		return createPayout(tx, errors);
	}

	function createDynamicPix(tx, errors) {
		const subject = subjectRef(errors, tx.subject_id);
		const from = accountRef(errors, 'from_bank_account_id', tx.from_bank_account_id);
		const to = accountRef(errors, 'to_bank_account_id', tx.to_bank_account_id);
		if (from) {
			if (!state.accountPurposes[from.id]?.partner || from.currency !== 'BRL')
				errors.add('from_bank_account_id', "must be the partner's exclusive BRL bank account");
			else if (!from.pix_info?.key)
				errors.add(
					'from_bank_account_id',
					'has no registered PIX key; dynamic PIX needs an account with a PIX key',
				);
		}
		requireCurrency(errors, tx, 'currency', ['BRL']);
		requireCurrency(errors, tx, 'exchange_currency', EXCHANGE_CURRENCIES);
		requireMoney(errors, tx, 'value');
		destinationMatches(errors, to, tx.exchange_currency);
		let expiresAt = clock.now() + DEFAULT_PIX_EXPIRY_SECONDS * 1000;
		const exp = tx.dynamic_pix_expires_at;
		if (!isBlank(exp)) {
			// The documented example carries milliseconds (live docs): accepted, as the service does.
			if (readPixExpiry(exp) === null) {
				errors.add(
					'dynamic_pix_expires_at',
					'must be a UTC date-time in the form YYYY-MM-DDThh:mm:ssZ',
				);
			} else if (readPixExpiry(exp) <= clock.now() + 60000) {
				errors.add(
					'dynamic_pix_expires_at',
					`must be more than 1 minute after the current time (${clock.iso()})`,
				);
			} else expiresAt = readPixExpiry(exp);
		}
		check(errors);
		const transaction = base('dynamic_pix', subject, tx);
		transaction.meta = {
			...(typeof tx.meta === 'object' && tx.meta ? tx.meta : {}),
			dynamic_pix_due_date: isoSeconds(expiresAt),
		};
		transaction.dynamic_pix_code = buildDynamicBrCode({
			location: `${ctx.publicHost()}/_sandbox/pix/${transaction.id.replace(/-/g, '')}`,
			value: transaction.value,
			reference: transaction.id.replace(/-/g, '').slice(0, 25),
		});
		transaction._expiryTask = clock.schedule(
			expiresAt,
			() => expire(transaction),
			`dynamic PIX expiry ${transaction.id}`,
		);
		state.transactions.set(transaction.id, transaction);
		return transaction;
	}

	function createBoleto(tx, errors) {
		const subject = subjectRef(errors, tx.subject_id);
		const to = accountRef(errors, 'to_bank_account_id', tx.to_bank_account_id);
		requireCurrency(errors, tx, 'currency', ['BRL']);
		requireCurrency(errors, tx, 'exchange_currency', EXCHANGE_CURRENCIES);
		requireMoney(errors, tx, 'value');
		destinationMatches(errors, to, tx.exchange_currency);
		const fb = tx.from_boleto;
		const expireAt = fb && typeof fb === 'object' ? fb.expire_at : undefined;
		if (isBlank(expireAt)) errors.add('from_boleto.expire_at', "can't be blank");
		else if (!isDate(expireAt))
			errors.add('from_boleto.expire_at', 'must be a date in the form YYYY-MM-DD');
		else if (expireAt < clock.iso().slice(0, 10))
			errors.add(
				'from_boleto.expire_at',
				`cannot be in the past (today is ${clock.iso().slice(0, 10)})`,
			);
		subjectHas(errors, subject, CARD_SUBJECT_FIELDS, 'boleto');
		check(errors);
		const transaction = base('boleto', subject, tx);
		transaction.from_boleto = { expire_at: expireAt };
		transaction.bar_code = buildBarcode({
			expireAt,
			cents: toCents(transaction.value),
			freeField: freeFieldFrom(transaction.id),
		});
		transaction.digital_line = barcodeToDigitalLine(transaction.bar_code);
		transaction.url_pdf = `${ctx.baseUrl()}/api/v1/transactions/${transaction.id}/boleto_pdf`;
		const endOfDay = Date.parse(`${expireAt}T00:00:00Z`) + 86400000;
		transaction._expiryTask = clock.schedule(
			endOfDay,
			() => expire(transaction),
			`boleto expiry ${transaction.id}`,
		);
		state.transactions.set(transaction.id, transaction);
		return transaction;
	}

	function createPayout(tx, errors) {
		const subject = subjectRef(errors, tx.subject_id);
		const from = accountRef(errors, 'from_bank_account_id', tx.from_bank_account_id);
		const to = accountRef(errors, 'to_bank_account_id', tx.to_bank_account_id);
		if (
			from &&
			!(from.internal && from.flow_type === 'cash_out' && state.accountPurposes[from.id]?.partner)
		) {
			errors.add('from_bank_account_id', "must be the partner's cash-out internal account");
		}
		requireCurrency(errors, tx, 'currency');
		requireCurrency(errors, tx, 'exchange_currency');
		requireAmount(errors, tx, 'value', tx.currency);
		if (from && tx.currency && from.currency !== tx.currency)
			errors.add('currency', `must equal the currency of from_bank_account_id (${from.currency})`);
		destinationMatches(errors, to, tx.exchange_currency);
		if (to && !to.account_number && !to.pix_info?.key && !to.iban)
			errors.add('to_bank_account_id', 'has neither bank details nor a PIX key');
		check(errors);
		const transaction = base('payout', subject, tx);
		transaction.payout_method =
			to.account_number && to.branch_number ? 'ted' : to.pix_info?.key ? 'pix' : 'wire';
		state.transactions.set(transaction.id, transaction);
		identify(transaction);
		return transaction;
	}

	/** POST /transactions/checkout (body without wrapper) */
	function createCheckout(body) {
		const errors = new Errors();
		const input = body && typeof body === 'object' ? body : {};
		const subject = subjectRef(errors, input.subject_id);
		const to = accountRef(errors, 'to_bank_account_id', input.to_bank_account_id);
		requireCurrency(errors, input, 'currency', CARD_CURRENCIES);
		requireAmount(errors, input, 'value', input.currency);
		requireCurrency(errors, input, 'exchange_currency', EXCHANGE_CURRENCIES);
		destinationMatches(errors, to, input.exchange_currency);
		subjectHas(errors, subject, CARD_SUBJECT_FIELDS, 'card payments');
		check(errors);
		const id = randomUUID();
		const checkout = {
			id,
			checkout_id: id,
			checkout_url: `${ctx.baseUrl()}/_sandbox/checkout/${id}`,
			status: 'active',
			subject_id: subject.id,
			value: input.value,
			currency: input.currency,
			exchange_currency: input.exchange_currency,
			to_bank_account_id: to.id,
			transaction_ids: [],
			paid_transaction_id: null,
			inserted_at: clock.iso(),
			paid_at: null,
		};
		state.checkouts.set(id, checkout);
		return checkout;
	}

	function checkoutAttempt(checkout, success) {
		if (checkout.status !== 'active')
			throw invalid(
				'status',
				`the checkout is ${checkout.status}; only an active checkout page can be paid`,
			);
		const subject = state.subjects.get(checkout.subject_id);
		const transaction = base('card', subject, {
			...checkout,
			from_credit_card: {
				brand: 'visa',
				last4: success ? '4242' : '0002',
				holder_name: subject.social_name,
			},
		});
		transaction.checkout_id = checkout.id;
		state.transactions.set(transaction.id, transaction);
		checkout.transaction_ids.push(transaction.id);
		if (success) {
			checkout.status = 'paid';
			checkout.paid_at = clock.iso();
			checkout.paid_transaction_id = transaction.id;
			ctx.emit('payment_approved', { transaction_id: transaction.id, checkout_id: checkout.id });
			// The spec does not say when an approved card payment becomes identified: by default with
			// its approval; played `later`, it stays pending until POST /_sandbox/transactions/:id/identify.
			if (play().card_identification !== 'later') identify(transaction);
		} else {
			markCanceled(transaction, 'card_declined');
			ctx.emit('payment_failed', { transaction_id: transaction.id, checkout_id: checkout.id });
		}
		return transaction;
	}

	/** The customer pays (or not) a dynamic PIX, boleto, or checkout page. */
	function pay(id, body = {}) {
		const success = body.success === undefined ? true : toBool(body.success);
		if (success === undefined) throw invalid('success', 'must be true or false');
		const checkout = state.checkouts.get(id);
		if (checkout) return checkoutAttempt(checkout, success);
		const transaction = get(id);
		if (!['dynamic_pix', 'boleto', 'local_pay_in'].includes(transaction._kind))
			throw invalid(
				'id',
				'only dynamic PIX, boleto, local pay-in and checkout payments can be paid here',
			);
		if (transaction.status !== 'pending')
			throw invalid(
				'status',
				`the transaction is ${transaction.status}; only a pending transaction can be paid`,
			);
		if (!success) {
			expire(transaction);
			return transaction;
		}
		clock.cancel(transaction._expiryTask);
		const payer = body.payer_document_number;
		const subject = state.subjects.get(transaction.subject_id);
		if (
			transaction._kind === 'dynamic_pix' &&
			!isBlank(payer) &&
			payer !== subject.document_number
		) {
			transaction.paid_at = clock.iso();
			transaction.payer_document_number = payer;
			markCanceled(transaction, 'third_party_payer_refunded');
			ctx.emit('payment_refunded', { transaction_id: transaction.id });
			return transaction;
		}
		transaction.paid_at = clock.iso();
		identify(transaction);
		return transaction;
	}

	function identify(transaction) {
		transaction.status = 'identified';
		ctx.emit('identified', { transaction_id: transaction.id });
		if (ctx.config.autoSettle) settle({});
	}

	function markCanceled(transaction, reason) {
		clock.cancel(transaction._expiryTask);
		transaction.status = 'canceled';
		transaction.canceled_reason = reason;
		transaction.canceled_at = clock.iso();
	}

	function expire(transaction) {
		if (transaction.status !== 'pending') return;
		markCanceled(transaction, 'expired');
		ctx.emit('payment_expired', { transaction_id: transaction.id });
	}

	/**
	 * GET /transactions/:id/refund: cancels a payment that has not been processed (the node's
	 * Transaction → Cancel). Named after what it does; the service's path says "refund". Answers
	 * the void record, as the service does (live docs: "Cancel answer"), not the transaction.
	 */
	function cancel(id) {
		const transaction = get(id);
		if (transaction.status !== 'pending') {
			throw invalid(
				'status',
				`the transaction is ${transaction.status}; only a pending (unprocessed) payment can be canceled. For a received payment use GET /transactions/:id/refund_received_transaction`,
			);
		}
		markCanceled(transaction, 'canceled_by_partner');
		return {
			id: randomUUID(),
			reason: transaction.canceled_reason,
			inserted_at: clock.iso(),
			status: 'canceled',
			transaction_kind: 'payment',
			bank_transaction: {
				id: transaction.bank_transaction?.id ?? randomUUID(),
				value: transaction.value,
				iof_value: writeAmount(0n, transaction.currency),
				fx_value: writeAmount(0n, transaction.currency),
				exchange_rate: null,
				exchanged_value: transaction.exchanged_value,
				wire_id: transaction.wire_id,
				exchange_id: transaction.exchange_id,
			},
		};
	}

	/** A card payment played `later` becomes identified now (POST /_sandbox/transactions/:id/identify). */
	function identifyNow(id) {
		const transaction = get(id);
		if (transaction.status !== 'pending')
			throw invalid('status', `the transaction is ${transaction.status}, not pending`);
		identify(transaction);
		return transaction;
	}

	/** What the sandbox plays where the spec is silent (reset with the state). */
	function play(changes) {
		state.play ??= { card_identification: 'at_approval' };
		if (changes) {
			const errors = new Errors();
			if (
				changes.card_identification !== undefined &&
				!CARD_IDENTIFICATION.includes(changes.card_identification)
			)
				errors.add('card_identification', `must be one of: ${CARD_IDENTIFICATION.join(', ')}`);
			check(errors);
			if (changes.card_identification !== undefined)
				state.play.card_identification = changes.card_identification;
		}
		return { ...state.play };
	}

	/**
	 * A wire grouping many transactions: `count` pay-ins of one subject, identified, to the partner's
	 * USD destination account, then the exchange / wire step: one exchange_created and one
	 * wire_created (or wire_waiting_correction) naming all of them. No `identified` event per pay-in.
	 */
	function groupedWire(body = {}) {
		const errors = new Errors();
		const subject = subjectRef(errors, body.subject_id);
		const count = body.count ?? 40;
		if (!(Number.isInteger(count) && count > 0 && count <= 1000))
			errors.add('count', 'must be a whole number from 1 to 1000');
		const value = body.value ?? '10.00';
		if (typeof value !== 'string' || !/^\d+\.\d{2}$/.test(value))
			errors.add('value', 'must be a string with two decimals');
		check(errors);
		const ids = [];
		for (let n = 0; n < count; n++) {
			const transaction = base('static_pix', subject, {
				value,
				currency: 'BRL',
				exchange_currency: 'USD',
				to_bank_account_id: ACCOUNT_IDS.usdDestination,
			});
			transaction.cleared = true;
			transaction.status = 'identified';
			transaction.paid_at = clock.iso();
			state.transactions.set(transaction.id, transaction);
			ids.push(transaction.id);
		}
		const settled = settle({ wire_error_code: body.wire_error_code, only: new Set(ids) });
		return { transaction_ids: ids, ...settled };
	}

	/** GET /transactions/:id/refund_received_transaction: full refund of a received pay-in (the node's Transaction → Refund). */
	function refund(id) {
		const transaction = get(id);
		if (transaction.status !== 'identified' || transaction._kind === 'payout') {
			throw invalid(
				'status',
				`the transaction is ${transaction.status}${transaction._kind === 'payout' ? ' (a payout)' : ''}; only a received payment that is identified and not yet exchanged or wired can be refunded`,
			);
		}
		markCanceled(transaction, 'refunded');
		transaction.refunded_value = transaction.value;
		ctx.emit('payment_refunded', { transaction_id: transaction.id });
		return transaction;
	}

	/** Static PIX / TED receipt from a payer identified by document number. */
	function receive(method, body = {}) {
		const errors = new Errors();
		requirePresent(errors, body, ['document_number']);
		requireMoney(errors, body, 'value');
		const currency = body.currency ?? 'BRL';
		if (currency !== 'BRL') errors.add('currency', 'must be BRL (PIX and TED are Brazilian)');
		check(errors);
		const toId = method === 'pix' ? ACCOUNT_IDS.brlPixExclusive : ACCOUNT_IDS.brlNoPixKey;
		const bt = {
			id: randomUUID(),
			value: body.value,
			currency,
			movement_date: clock.iso().slice(0, 10),
			bank_account_id: toId,
			paid_at: clock.iso(),
			method,
			status: 'non_identified',
			subject: {
				document_number: body.document_number,
				document_type:
					body.document_type ?? (String(body.document_number).length === 14 ? 'cnpj' : 'cpf'),
				name: body.name ?? 'Unregistered Payer',
				bank_account: {
					bank: { code: '260', name: 'Nu Pagamentos S.A.' },
					branch_number: '0001',
					account_number: '12345678',
					account_type: 'conta-corrente',
				},
			},
		};
		const subject = ctx.subjects.findByDocument(body.document_number);
		if (subject) return { identified: true, transaction: identifyBankTransaction(bt, subject) };
		state.bankTransactions.set(bt.id, bt);
		const { status, method: _m, ...pub } = bt;
		ctx.emit('non_identified_bank_transaction', { bank_transaction: pub });
		bt._refundTask = clock.schedule(
			addBusinessDays(clock.now(), 2),
			() => {
				if (bt.status === 'non_identified') bt.status = 'refunded';
			},
			`refund of non-identified bank transaction ${bt.id}`,
		);
		return { identified: false, bank_transaction: bt };
	}

	function identifyBankTransaction(bt, subject) {
		const { status, method, _refundTask, ...pub } = bt;
		const transaction = base(method === 'pix' ? 'static_pix' : 'ted', subject, {
			value: bt.value,
			currency: bt.currency,
			exchange_currency: bt.currency,
			to_bank_account_id: bt.bank_account_id,
			bank_transaction: pub,
			source_name: bt.subject.name === 'Unregistered Payer' ? subject.social_name : bt.subject.name,
		});
		transaction.paid_at = bt.paid_at;
		state.transactions.set(transaction.id, transaction);
		bt.status = 'identified';
		bt.transaction_id = transaction.id;
		identify(transaction);
		return transaction;
	}

	/** A registered subject's document number matches earlier unidentified receipts. */
	function identifyPendingBankTransactions(subject) {
		for (const bt of state.bankTransactions.values()) {
			if (
				bt.status === 'non_identified' &&
				bt.subject.document_number === subject.document_number
			) {
				clock.cancel(bt._refundTask);
				identifyBankTransaction(bt, subject);
			}
		}
	}

	function needsWire(transaction) {
		return transaction.to_bank_account && !transaction.to_bank_account.internal;
	}

	/**
	 * The exchange / wire step: groups cleared transactions by subject and destination account.
	 * @param {{ wire_error_code?: string, only?: Set<string> }} options
	 */
	function settle(options = {}) {
		const code = options.wire_error_code;
		if (code !== undefined && !WIRE_ERRORS[code])
			throw invalid('wire_error_code', `must be one of: ${Object.keys(WIRE_ERRORS).join(', ')}`);
		const groups = (list) => {
			const byDestination = new Map();
			for (const transaction of list) {
				const key = `${transaction.subject_id}|${transaction.to_bank_account?.id}`;
				if (!byDestination.has(key)) byDestination.set(key, []);
				byDestination.get(key).push(transaction);
			}
			return [...byDestination.values()];
		};
		const all = [...state.transactions.values()].filter(
			(transaction) => transaction.cleared && (!options.only || options.only.has(transaction.id)),
		);
		const exchanges = [];
		for (const group of groups(
			all.filter((transaction) => transaction.status === 'identified' && transaction.for_exchange),
		)) {
			const ex = {
				id: randomUUID(),
				subject_id: group[0].subject_id,
				to_bank_account_id: group[0].to_bank_account?.id ?? null,
				currency: group[0].currency,
				exchange_currency: group[0].exchange_currency,
				value: writeAmount(
					group.reduce((sum, transaction) => sum + amountCents(transaction.value), 0n),
					group[0].currency,
				),
				exchanged_value: null,
				transaction_ids: group.map((transaction) => transaction.id),
				inserted_at: clock.iso(),
			};
			let total = 0n;
			for (const transaction of group) {
				transaction.status = 'exchanged';
				transaction.exchanged_value = converted(
					transaction.value,
					transaction.currency,
					transaction.exchange_currency,
				);
				transaction.exchange_id = ex.id;
				total += amountCents(transaction.exchanged_value);
			}
			ex.exchanged_value = writeAmount(total, group[0].exchange_currency);
			state.exchanges.set(ex.id, ex);
			exchanges.push(ex);
			ctx.emit('exchange_created', { exchange_id: ex.id, transaction_ids: ex.transaction_ids });
		}
		const wires = [];
		const wireable = all.filter(
			(transaction) =>
				!transaction.wire_id &&
				needsWire(transaction) &&
				(transaction.status === 'exchanged' ||
					(transaction.status === 'identified' && !transaction.for_exchange)),
		);
		for (const group of groups(wireable)) {
			const to = group[0].to_bank_account;
			const wire = {
				id: randomUUID(),
				currency: to.currency,
				value: writeAmount(
					group.reduce(
						(sum, transaction) =>
							sum + amountCents(transaction.exchanged_value ?? transaction.value),
						0n,
					),
					to.currency,
				),
				status: 'sent',
				method: group[0].payout_method ?? (to.currency === 'BRL' ? 'ted' : 'swift'),
				inserted_at: clock.iso(),
				unretryable: false,
				subject_id: group[0].subject_id,
				to_bank_account: to,
				transaction_ids: group.map((transaction) => transaction.id),
				error_code: null,
				error_description: null,
			};
			for (const transaction of group) transaction.wire_id = wire.id;
			state.wires.set(wire.id, wire);
			wires.push(wire);
			if (code) {
				wire.status = 'waiting_correction';
				wire.error_code = code;
				wire.error_description = WIRE_ERRORS[code];
				ctx.emit('wire_waiting_correction', {
					error_code: code,
					error_description: WIRE_ERRORS[code],
					bank_account_owner_id: wire.subject_id,
					bank_account_id: to.id,
					transaction_ids: wire.transaction_ids,
					wire_id: wire.id,
				});
			} else sendWire(wire);
		}
		return { exchanges, wires };
	}

	function sendWire(wire) {
		wire.status = 'sent';
		wire.error_code = null;
		wire.error_description = null;
		for (const id of wire.transaction_ids) {
			const transaction = state.transactions.get(id);
			if (transaction) transaction.status = 'wired';
		}
		ctx.emit('wire_created', { wire_id: wire.id, transaction_ids: wire.transaction_ids });
	}

	/** PUT /wires/:id/update_bank_account */
	function updateWireBankAccount(id, body) {
		const wire = state.wires.get(id);
		if (!wire) throw notFound();
		const ba = body?.bank_account;
		const errors = new Errors();
		if (!ba || typeof ba !== 'object') {
			errors.add('bank_account', "can't be blank");
			check(errors);
		}
		requireCurrency(errors, ba, 'currency');
		if (!ba.bank || typeof ba.bank !== 'object') errors.add('bank', "can't be blank");
		else requirePresent(errors, ba.bank, ['code', 'name'], 'bank.');
		requirePresent(errors, ba, [
			'branch_number',
			'account_number',
			'owner_document_number',
			'owner_name',
		]);
		if (isBlank(ba.branch_country)) errors.add('branch_country', "can't be blank");
		else if (!/^[A-Z]{2}$/.test(ba.branch_country))
			errors.add('branch_country', 'must be a two-letter country code, e.g. "BR"');
		if (isBlank(ba.account_type)) errors.add('account_type', "can't be blank");
		else if (!['conta-corrente', 'poupanca'].includes(ba.account_type))
			errors.add('account_type', 'must be one of: conta-corrente, poupanca');
		if (!isBlank(ba.currency) && ba.currency !== wire.currency)
			errors.add('currency', `must equal the wire currency (${wire.currency})`);
		check(errors);
		if (wire.status !== 'waiting_correction')
			throw invalid(
				'status',
				`the wire is ${wire.status}; only a wire waiting for correction can be updated`,
			);
		const old = wire.to_bank_account;
		const updated = {
			...old,
			id: randomUUID(),
			currency: ba.currency,
			bank: { ...(old?.bank ?? {}), code: ba.bank.code, name: ba.bank.name },
			branch_number: ba.branch_number,
			branch_country: ba.branch_country,
			account_number: ba.account_number,
			account_type: ba.account_type,
			owner_document_number: ba.owner_document_number,
			owner_name: ba.owner_name,
			internal: false,
		};
		state.bankAccounts.set(updated.id, updated);
		wire.to_bank_account = updated;
		wire.status = 'waiting_confirmation';
		clock.schedule(
			clock.now() + WIRE_RETRY_SECONDS * 1000,
			() => {
				if (wire.status === 'waiting_confirmation') sendWire(wire);
			},
			`wire retry ${wire.id}`,
		);
		return wire;
	}

	function wireView(wire) {
		return { ...wire };
	}

	return {
		get,
		view,
		create,
		createCheckout,
		pay,
		cancel,
		identifyNow,
		play,
		groupedWire,
		refund,
		receive,
		settle,
		updateWireBankAccount,
		wireView,
		identifyPendingBankTransactions,
	};
}

function addBusinessDays(ms, days) {
	let time = ms;
	let left = days;
	while (left > 0) {
		time += 86400000;
		const wd = new Date(time).getUTCDay();
		if (wd !== 0 && wd !== 6) left--;
	}
	return time;
}
