/**
 * The transaction record: the fields every kind has (one home for dynamic PIX, boleto, payout,
 * card, static PIX / TED receipts and local pay-ins), its public view, and reading one by id.
 */
import { notFound } from '../../errors.mjs';
import { convertAmount } from './amounts.mjs';

/** @param {import('./env.mjs').TransactionEnv} env @param {string} id */
export function getTransaction(env, id) {
	const transaction = env.state.transactions.get(id);
	if (!transaction) throw notFound();
	return transaction;
}

/**
 * A new `pending` transaction of `kind` for `subject`. `fields` are the body's (value, currency,
 * exchange_currency, account ids, and optional source_*, from_credit_card, bank_transaction, meta,
 * payment_info); the estimate is `value` converted to `exchange_currency`.
 * @param {string} kind @param {any} subject @param {any} fields @param {import('./env.mjs').TransactionEnv} env
 */
export function newTransaction(kind, subject, fields, env) {
	const account = (id) => (id ? (env.state.bankAccounts.get(id) ?? null) : null);
	const cleared = env.clearance(subject);
	const forExchange = fields.currency !== fields.exchange_currency;
	return {
		id: env.newId(),
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
		inserted_at: env.clock.iso(),
		for_exchange: forExchange,
		exchange_under_request: false,
		estimated_value_until_exchange: forExchange
			? convertAmount(fields.value, fields.currency, fields.exchange_currency)
			: fields.value,
		cleared,
		dynamic_pix_code: null,
		exchanged_value: null,
		exchange_id: null,
		wire_id: null,
		canceled_reason: null,
		canceled_at: null,
		paid_at: null,
		bank_transaction: fields.bank_transaction ?? null,
		...(kind === 'local_pay_in' ? { payment_info: fields.payment_info ?? null } : {}),
		meta: fields.meta ?? {},
		_kind: kind,
	};
}

/**
 * What the API shows of a transaction: its fields but the sandbox's own (`_…`), with its subject.
 * @param {any} transaction @param {(subject: any) => any} subjectView @param {any} state
 */
export function transactionView(transaction, subjectView, state) {
	const out = {};
	for (const [key, value] of Object.entries(transaction))
		if (!key.startsWith('_')) out[key] = value;
	out.subject = transaction.subject_id
		? subjectView(state.subjects.get(transaction.subject_id))
		: null;
	return out;
}
