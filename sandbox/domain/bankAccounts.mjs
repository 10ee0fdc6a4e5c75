/**
 * Bank accounts beyond the seeded ones (live docs): customers' accounts registered with
 * `POST /subject/:id/bank_accounts`, which a payout can then use as `to_bank_account_id`, and the
 * balance of the partner's own accounts, `GET /bank_accounts/:id/balance`.
 */
import { randomUUID } from 'node:crypto';
import { Errors, documentNumberError, isBlank, ALL_DOCUMENT_TYPES } from '../validation.mjs';
import { check, notFound } from '../errors.mjs';
import { CURRENCIES, formatCents } from '../money.mjs';
import { OPENING_BALANCES } from '../accounts.mjs';
import { amountCents, writeAmount } from './transactions/amounts.mjs';
import { PAY_IN_ACCOUNT_IDS } from './localPayIns.mjs';

const PAY_IN_IDS = new Set(Object.values(PAY_IN_ACCOUNT_IDS));

/** Statuses of a transaction whose funds reached its destination account. */
const CREDITED = ['identified', 'exchanged', 'wired'];
/** `pix_info.type` values (CPF and EVP seen in the docs; the others follow their naming). */
export const PIX_KEY_TYPES = ['CNPJ', 'CPF', 'EMAIL', 'EVP', 'PHONE'];

const isBrazilianBranch = (country) => country === 'BR' || country === 'BRA';

/** The PIX key type its shape shows, or null. @param {string} key */
function pixKeyType(key) {
	if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(key)) return 'EMAIL';
	if (/^\+55\d{10,11}$/.test(key)) return 'PHONE';
	if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(key)) return 'EVP';
	if (/^\d{11}$/.test(key) && !documentNumberError('cpf', key)) return 'CPF';
	if (/^[0-9A-Z]{12}\d{2}$/.test(key) && !documentNumberError('cnpj', key)) return 'CNPJ';
	return null;
}

export function createBankAccounts(ctx) {
	const { state, clock } = ctx;

	/**
	 * POST /subject/:id/bank_accounts. Rules: a currency, an owner (name and a valid document), a
	 * branch country of 2 or 3 letters (the docs' example writes BRA), and bank details or a PIX key
	 * (a BRL account only); a Brazilian account with an account number needs the 3-digit bank
	 * code, a branch of 1 to 5 digits, an account type and a CPF or CNPJ owner.
	 */
	function register(subjectId, input) {
		const subject = ctx.subjects.get(subjectId);
		const errors = new Errors();
		if (!input || typeof input !== 'object' || Array.isArray(input)) {
			errors.add('bank_account', "can't be blank");
			check(errors);
		}
		if (isBlank(input.currency)) errors.add('currency', "can't be blank");
		else if (!CURRENCIES.includes(input.currency))
			errors.add('currency', `must be one of: ${CURRENCIES.join(', ')}`);
		if (isBlank(input.owner_name)) errors.add('owner_name', "can't be blank");
		if (!ALL_DOCUMENT_TYPES.includes(input.owner_document_type))
			errors.add('owner_document_type', `must be one of: ${ALL_DOCUMENT_TYPES.join(', ')}`);
		else {
			const message = documentNumberError(input.owner_document_type, input.owner_document_number);
			if (message) errors.add('owner_document_number', message);
		}
		if (isBlank(input.branch_country)) errors.add('branch_country', "can't be blank");
		else if (!/^[A-Z]{2,3}$/.test(String(input.branch_country)))
			errors.add('branch_country', 'must be a country code of 2 or 3 letters, e.g. "BRA"');
		const key = input.pix_info?.key;
		if (isBlank(input.account_number) && isBlank(key))
			errors.add('account_number', "can't be blank when no pix_info.key is given");
		if (!isBlank(key)) {
			const type = pixKeyType(String(key));
			if (input.currency !== 'BRL') errors.add('pix_info.key', 'only a BRL account has a PIX key');
			if (!type) errors.add('pix_info.key', 'is not a PIX key');
			else if (!isBlank(input.pix_info.type) && input.pix_info.type !== type)
				errors.add('pix_info.type', `must be ${type} for this key`);
		}
		if (!isBlank(input.account_number) && isBrazilianBranch(input.branch_country)) {
			if (!/^\d{3}$/.test(String(input.bank?.code ?? '')))
				errors.add('bank.code', 'must be the 3-digit code of a Brazilian bank, e.g. "001"');
			if (!/^\d{1,5}$/.test(String(input.branch_number ?? '')))
				errors.add('branch_number', 'must be 1 to 5 digits');
			if (!/^\d{1,20}(-[\dX])?$/.test(String(input.account_number)))
				errors.add('account_number', 'must be digits, optionally with a dash and a check digit');
			if (!['conta-corrente', 'poupanca'].includes(input.account_type))
				errors.add('account_type', 'must be one of: conta-corrente, poupanca');
			if (!['cpf', 'cnpj'].includes(input.owner_document_type))
				errors.add('owner_document_type', 'must be cpf or cnpj for a Brazilian account');
		}
		check(errors);
		const account = {
			id: randomUUID(),
			currency: input.currency,
			bank: input.bank
				? { id: null, code: input.bank.code ?? null, name: input.bank.name ?? null, country: null }
				: null,
			branch_number: input.branch_number ?? null,
			branch_country: input.branch_country,
			account_number: input.account_number ?? null,
			account_type: input.account_type ?? null,
			aba: null,
			iban: input.iban ?? null,
			routing_number: null,
			nickname: null,
			owner_name: input.owner_name,
			owner_document_number: input.owner_document_number,
			owner_document_type: input.owner_document_type,
			owner_company: {
				id: subject.id,
				social_name: subject.social_name,
				document_type: subject.document_type,
				document_number: subject.document_number,
			},
			pix_info: isBlank(key) ? null : { type: pixKeyType(String(key)), key },
			intermediary_bank_account: null,
			company: null,
			internal: false,
			flow_type: 'cash_out',
			inserted_at: clock.iso(),
		};
		state.bankAccounts.set(account.id, account);
		state.accountPurposes[account.id] = {
			purpose: `customer's account (${subject.social_name}), registered with POST /subject/:id/bank_accounts`,
			partner: false,
			subject_id: subject.id,
		};
		return account;
	}

	/**
	 * GET /bank_accounts/:id/balance: one of the partner's own accounts (a customer's answers 404).
	 * Credits: the opening balance of a seeded account, and every transaction whose funds reached it
	 * (its value in the account's currency); debits: every payout paid from it that is not
	 * canceled. balance = credit − debit, as in the documented example.
	 */
	function balance(id) {
		if (PAY_IN_IDS.has(id)) ctx.localPayIns?.ensureAccounts();
		const account = state.bankAccounts.get(id);
		if (!account || !(state.accountPurposes[id]?.partner || PAY_IN_IDS.has(id))) throw notFound();
		let credit = 0n;
		let debit = 0n;
		let credits = 0;
		let debits = 0;
		const opening = OPENING_BALANCES[id];
		if (opening) {
			credit += amountCents(opening);
			credits++;
		}
		for (const transaction of state.transactions.values()) {
			if (
				transaction.to_bank_account?.id === id &&
				!transaction.subject_is_receiver &&
				CREDITED.includes(transaction.status)
			) {
				const value =
					transaction.currency === account.currency
						? transaction.value
						: transaction.exchange_currency === account.currency
							? transaction.exchanged_value
							: null;
				if (value) {
					credit += amountCents(value);
					credits++;
				}
			}
			if (
				transaction.from_bank_account?.id === id &&
				transaction.subject_is_receiver === true &&
				transaction.status !== 'canceled'
			) {
				if (transaction.currency === account.currency) {
					debit += amountCents(transaction.value);
					debits++;
				}
			}
		}
		const write = (cents) =>
			account.currency === 'CLP' ? writeAmount(cents, 'CLP') : formatCents(cents);
		return {
			balance: credit >= debit ? write(credit - debit) : `-${write(debit - credit)}`,
			credit_value: write(credit),
			debit_value: write(debit),
			credit_transactions: credits,
			debit_transactions: debits,
			currency: account.currency,
		};
	}

	return { register, balance };
}
