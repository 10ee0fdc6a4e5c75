/**
 * Local pay-ins as the live docs describe them (Mexico's dynamic CLABE, Chile, Colombia's PSE,
 * stablecoins): `POST /transactions` with `currency`, `exchange_currency`, `value`,
 * `from_bank_account_id` (the partner's real account in the currency paid), `to_bank_account_id`
 * (an internal cash-in account whose currency is `exchange_currency`) and `subject_id`, and no
 * `use_dynamic_pix` or `from_boleto`. FacilitaPay's public Python client asks for two of them
 * without `from_bank_account_id`: Colombia's PSE with `from_pse` (./pse.mjs) and Mexico's dynamic
 * CLABE with `from_spei: {dynamic_clabe: true}` (the CLABE valid 30 days, a top-level
 * `payment_description` taken); the sandbox then pays in through the partner's real account.
 *
 * `POST /transactions` sends such a body here (transactions/requestKind.mjs), and
 * `POST /_sandbox/pay/:id` pays it like a dynamic PIX (transactions/customerPayment.mjs). The record
 * is every transaction's (transactions/record.mjs), with `payment_info` saying how to pay.
 * Its accounts (PAY_IN_ACCOUNT_IDS) enter the state on the first pay-in or balance read.
 */
import { Errors, isBlank, requireMoney } from '../validation.mjs';
import { check, notFound } from '../errors.mjs';
import { CURRENCIES } from '../money.mjs';
import { BANKS, PARTNER_COMPANY } from '../accounts.mjs';
import { ADDRESS_FIELDS } from './subjects/records.mjs';
import { STABLECOINS } from './transactions/amounts.mjs';
import { newTransaction } from './transactions/record.mjs';
import { subjectRef } from './transactions/references.mjs';
import { expire } from './transactions/status.mjs';
import { transactionEnv } from './transactions/env.mjs';
import { financialInstitutions, isPseRequest, pseAnswer, validatePse } from './pse.mjs';

/**
 * Mexico's dynamic CLABE as the public Python client asks for it: `from_spei: {dynamic_clabe:
 * true}` and no `from_bank_account_id`. @param {any} tx
 */
const isSpeiRequest = (tx) => tx?.from_spei !== undefined && tx?.from_spei !== null;

export const LOCAL_CURRENCIES = ['CLP', 'COP', 'MXN'];
/** What a pay-in may be converted to. */
export const PAY_IN_EXCHANGE_CURRENCIES = [...CURRENCIES, ...STABLECOINS];
/** A dynamic CLABE stays payable 30 days (FacilitaPay's public Python client). */
export const CLABE_EXPIRY_SECONDS = 30 * 24 * 3600;
/** A PSE bank payment URL is valid once for 21 minutes (live docs). */
export const PSE_EXPIRY_SECONDS = 21 * 60;
/** Subject fields a PSE payment needs (spec: e-mail, phone with country and area code, address). */
export const PSE_SUBJECT_FIELDS = [
	'email',
	'phone_country_code',
	'phone_area_code',
	'phone_number',
	...ADDRESS_FIELDS,
];

/** The partner's pay-in accounts (fixed ids), kept apart from the six seeded accounts. */
export const PAY_IN_ACCOUNT_IDS = {
	mxnReal: '0b5e7c2a-1f3d-4a8e-9c61-000000000101',
	mxnCashIn: '0b5e7c2a-1f3d-4a8e-9c61-000000000102',
	clpReal: '0b5e7c2a-1f3d-4a8e-9c61-000000000103',
	copReal: '0b5e7c2a-1f3d-4a8e-9c61-000000000104',
	usdCashIn: '0b5e7c2a-1f3d-4a8e-9c61-000000000105',
	usdtReal: '0b5e7c2a-1f3d-4a8e-9c61-000000000106',
	usdcCashIn: '0b5e7c2a-1f3d-4a8e-9c61-000000000107',
};

function payInAccount(id, currency, internal, nickname) {
	return {
		id,
		currency,
		bank: BANKS.bs2,
		branch_number: null,
		branch_country: 'BR',
		account_number: `${currency}-${id.slice(-4)}`,
		account_type: null,
		aba: null,
		iban: null,
		routing_number: null,
		nickname,
		owner_name: PARTNER_COMPANY.social_name,
		owner_document_number: PARTNER_COMPANY.document_number,
		owner_document_type: 'cnpj',
		pix_info: null,
		intermediary_bank_account: null,
		company: PARTNER_COMPANY,
		internal,
		flow_type: 'cash_in',
	};
}

export function payInAccounts() {
	const ids = PAY_IN_ACCOUNT_IDS;
	return [
		payInAccount(ids.mxnReal, 'MXN', false, 'Partner MXN (real, SPEI)'),
		payInAccount(ids.mxnCashIn, 'MXN', true, 'Partner MXN cash-in'),
		payInAccount(ids.clpReal, 'CLP', false, 'Partner CLP (real)'),
		payInAccount(ids.copReal, 'COP', false, 'Partner COP (real, PSE)'),
		payInAccount(ids.usdCashIn, 'USD', true, 'Partner USD cash-in'),
		payInAccount(ids.usdtReal, 'USDT', false, 'Partner USDT wallet'),
		payInAccount(ids.usdcCashIn, 'USDC', true, 'Partner USDC cash-in'),
	];
}

const PAY_IN_IDS = new Set(Object.values(PAY_IN_ACCOUNT_IDS));

/**
 * Whether a `POST /transactions` body is a local pay-in: neither a dynamic PIX nor a boleto, a
 * local currency or a stablecoin, and not paid from a cash-out account (that is a payout).
 * @param {any} tx @param {any} state
 */
export function isLocalPayIn(tx, state) {
	if (!tx || typeof tx !== 'object') return false;
	if (
		(tx.use_dynamic_pix !== undefined && tx.use_dynamic_pix !== null) ||
		tx.from_boleto !== undefined
	)
		return false;
	if (![...LOCAL_CURRENCIES, ...STABLECOINS].includes(tx.currency)) return false;
	const from = state.bankAccounts.get(tx.from_bank_account_id);
	return !(from && from.flow_type === 'cash_out');
}

/** A CLABE: 18 digits, its last a check digit (weights 3, 7, 1; 10 − Σ mod 10). */
export function clabeFor(seed) {
	const digits = `646180${String(seed).replace(/\D/g, '').padEnd(11, '0').slice(0, 11)}`;
	const weights = [3, 7, 1];
	let sum = 0;
	for (let index = 0; index < 17; index++) sum += (Number(digits[index]) * weights[index % 3]) % 10;
	return `${digits}${(10 - (sum % 10)) % 10}`;
}

export function createLocalPayIns(ctx) {
	const { state, clock } = ctx;
	const env = transactionEnv(ctx);
	let pseTickets = 0;
	/** Whether GET /pse/financial_institutions answers its list (played: POST /_sandbox/pse/banks). */
	const psePlay = { listed: true };
	/**
	 * Where the answer to `from_spei: {dynamic_clabe: true}` puts the CLABE (played: POST
	 * /_sandbox/spei). Not published: `from_spei` (default) also echoes `from_spei` with the sandbox's
	 * guesses `clabe` and `expires_at`; `payment_info` gives only the documented
	 * `payment_info.dynamic_clabe` of local pay-ins, and no expiry.
	 */
	const speiPlay = { answer: 'from_spei' };

	/** The partner's real account in `currency`, where a pay-in without a source account comes in. */
	const realAccountFor = (currency) =>
		payInAccounts().find((account) => account.currency === currency && !account.internal);

	/**
	 * Puts the pay-in accounts in the state when first needed (a pay-in, a balance), not at start:
	 * the seeded accounts that the CLI, `npm start` and GET /_sandbox/accounts list stay the six.
	 */
	function ensureAccounts() {
		for (const account of payInAccounts())
			if (!state.bankAccounts.has(account.id)) state.bankAccounts.set(account.id, account);
	}

	/** Creates the pay-in (status `pending`, waiting for the customer's money). @param {any} tx */
	function create(tx) {
		ensureAccounts();
		const errors = new Errors();
		const subject = subjectRef(errors, state, tx.subject_id);
		const from = state.bankAccounts.get(tx.from_bank_account_id);
		const to = state.bankAccounts.get(tx.to_bank_account_id);
		const currencies = [...LOCAL_CURRENCIES, ...STABLECOINS];
		if (!currencies.includes(tx.currency))
			errors.add('currency', `must be one of: ${currencies.join(', ')}`);
		if (!PAY_IN_EXCHANGE_CURRENCIES.includes(tx.exchange_currency))
			errors.add('exchange_currency', `must be one of: ${PAY_IN_EXCHANGE_CURRENCIES.join(', ')}`);
		const clientShape = isPseRequest(tx) || isSpeiRequest(tx);
		if (isPseRequest(tx)) {
			if (tx.currency !== 'COP') errors.add('currency', 'must be COP for a PSE payment (from_pse)');
			validatePse(errors, tx.from_pse);
		}
		if (isSpeiRequest(tx)) {
			if (tx.currency !== 'MXN')
				errors.add('currency', 'must be MXN for a dynamic CLABE (from_spei)');
			if (tx.from_spei?.dynamic_clabe !== true)
				errors.add('from_spei.dynamic_clabe', 'must be true');
		}
		if (tx.payment_description !== undefined && typeof tx.payment_description !== 'string')
			errors.add('payment_description', 'must be a string');
		if (clientShape && isBlank(tx.from_bank_account_id)) {
			// No source account in these flows: the partner's real account in the currency paid.
		} else if (isBlank(tx.from_bank_account_id))
			errors.add('from_bank_account_id', "can't be blank");
		else if (!from || !PAY_IN_IDS.has(from.id) || from.internal)
			errors.add('from_bank_account_id', "must be the partner's real account in the currency paid");
		else if (from.currency !== tx.currency)
			errors.add(
				'from_bank_account_id',
				`currency (${from.currency}) must equal currency (${tx.currency})`,
			);
		if (isBlank(tx.to_bank_account_id)) errors.add('to_bank_account_id', "can't be blank");
		else if (!to || !to.internal || to.flow_type !== 'cash_in')
			errors.add('to_bank_account_id', "must be one of the partner's internal cash-in accounts");
		else if (to.currency !== tx.exchange_currency)
			errors.add(
				'to_bank_account_id',
				`currency (${to.currency}) must equal exchange_currency (${tx.exchange_currency})`,
			);
		if (tx.currency === 'CLP') {
			if (
				typeof tx.value !== 'string' ||
				!/^\d+(\.00)?$/.test(tx.value) ||
				/^0+(\.00)?$/.test(tx.value)
			)
				errors.add('value', 'must be a whole number of Chilean pesos as a string, e.g. "15000"');
		} else requireMoney(errors, tx, 'value');
		if (subject && tx.currency === 'COP') {
			const missing = PSE_SUBJECT_FIELDS.filter((field) => isBlank(subject[field]));
			if (missing.length)
				errors.add('subject_id', `the subject must have ${missing.join(', ')} registered for PSE`);
		}
		check(errors);
		const source = from ?? realAccountFor(tx.currency);
		const value = tx.currency === 'CLP' ? tx.value.replace(/\.00$/, '') : tx.value;
		const transaction = newTransaction(
			'local_pay_in',
			subject,
			{
				value,
				currency: tx.currency,
				exchange_currency: tx.exchange_currency,
				to_bank_account_id: to.id,
				from_bank_account_id: source.id,
				meta: tx.meta,
			},
			env,
		);
		if (tx.payment_description !== undefined)
			transaction.payment_description = tx.payment_description;
		const { id } = transaction;
		let expiresAt = null;
		if (tx.currency === 'MXN') {
			expiresAt = clock.now() + CLABE_EXPIRY_SECONDS * 1000;
			const clabe = clabeFor(BigInt(`0x${id.replace(/-/g, '').slice(0, 12)}`));
			transaction.payment_info = { dynamic_clabe: clabe };
			if (isSpeiRequest(tx) && speiPlay.answer === 'from_spei')
				transaction.from_spei = {
					dynamic_clabe: true,
					clabe,
					expires_at: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
				};
		} else if (isPseRequest(tx)) {
			expiresAt = clock.now() + PSE_EXPIRY_SECONDS * 1000;
			transaction.from_pse = pseAnswer(tx.from_pse, {
				id,
				paymentUrl: `${ctx.baseUrl()}/_sandbox/pse/${id}`,
				now: clock.iso(),
				seq: ++pseTickets,
			});
		} else if (tx.currency === 'COP') {
			expiresAt = clock.now() + PSE_EXPIRY_SECONDS * 1000;
			transaction.payment_info = {
				pse_url: `${ctx.baseUrl()}/_sandbox/pse/${id}`,
				expires_at: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
			};
		}
		if (expiresAt !== null)
			transaction._expiryTask = clock.schedule(
				expiresAt,
				() => expire(transaction, env),
				`local pay-in expiry ${id}`,
			);
		state.transactions.set(id, transaction);
		return transaction;
	}

	/** The pay-in by id (404 when it is not one). */
	function get(id) {
		const transaction = state.transactions.get(id);
		if (!transaction || transaction._kind !== 'local_pay_in') throw notFound();
		return transaction;
	}

	return {
		create,
		get,
		expire,
		ensureAccounts,
		financialInstitutions: () => financialInstitutions(psePlay),
		/** @param {{ listed?: boolean }} changes */
		playPseBanks(changes = {}) {
			if (typeof changes.listed === 'boolean') psePlay.listed = changes.listed;
			return { ...psePlay };
		},
		/** @param {{ answer?: string }} changes */
		playSpeiAnswer(changes = {}) {
			if (changes.answer !== undefined) speiPlay.answer = changes.answer;
			return { ...speiPlay };
		},
	};
}
