// What the transaction rules (sandbox/domain/transactions/) need, for calling them on their own:
// a fresh state with the six seeded accounts, a virtual clock, the events sent, numbered ids and
// one registered subject with everything a boleto or a card payment asks of it.
import { createState } from '../../../sandbox/state.mjs';
import { createClock } from '../../../sandbox/clock.mjs';
import { newTransaction } from '../../../sandbox/domain/transactions/record.mjs';
import { ACCOUNT_IDS, START, person } from '../helpers.mjs';

export { ACCOUNT_IDS };
/** A Monday, 12:00 UTC (the HTTP tests' start). */
export const NOW = START;

/** A registered person with everything a boleto or a card payment asks of a subject. */
export const SUBJECT = { id: 'a1b2c3d4-0000-4000-8000-000000000001', ...person() };

/** A valid dynamic PIX body (BRL from the partner's PIX account, exchanged to USD), with `fields`. */
export const pixBody = (fields = {}) => ({
	subject_id: SUBJECT.id,
	from_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
	to_bank_account_id: ACCOUNT_IDS.usdDestination,
	currency: 'BRL',
	exchange_currency: 'USD',
	value: '10.00',
	...fields,
});

/**
 * @param {{ cleared?: boolean, autoSettle?: boolean }} [options]
 */
export function transactionTestEnv(options = {}) {
	const state = createState();
	const clock = createClock({ now: NOW });
	/** @type {any[]} */
	const events = [];
	let sequence = 0;
	state.subjects.set(SUBJECT.id, { ...SUBJECT });
	/** @type {import('../../../sandbox/domain/transactions/env.mjs').TransactionEnv} */
	const env = {
		state,
		clock,
		emit: (type, fields) => events.push({ type, ...fields }),
		newId: () => `00000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`,
		clearance: () => options.cleared ?? true,
		findSubject: (documentNumber) =>
			[...state.subjects.values()].find((subject) => subject.document_number === documentNumber) ??
			null,
		baseUrl: () => 'http://127.0.0.1:4010',
		publicHost: () => '127.0.0.1:4010',
		autoSettle: options.autoSettle ?? false,
	};
	return { env, state, clock, events, types: () => events.map((event) => event.type) };
}

/**
 * A transaction stored as if it had reached `status`: by default an identified dynamic PIX of
 * 10.00 BRL exchanged to USD, to the partner's USD account; `fields` replace the body's.
 */
export function storedTransaction(
	env,
	{ kind = 'dynamic_pix', status = 'identified', subject = SUBJECT, ...fields } = {},
) {
	const body = {
		value: '10.00',
		currency: 'BRL',
		exchange_currency: 'USD',
		to_bank_account_id: ACCOUNT_IDS.usdDestination,
		...fields,
	};
	const transaction = newTransaction(kind, subject, body, env);
	transaction.status = status;
	env.state.transactions.set(transaction.id, transaction);
	return transaction;
}

/** The body of the error a refused call throws (its 422 `{"errors": {...}}`). */
export function refusal(call) {
	try {
		call();
	} catch (error) {
		return /** @type {any} */ (error).body;
	}
	throw new Error('not refused');
}
