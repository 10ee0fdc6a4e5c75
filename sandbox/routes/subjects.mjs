/**
 * Subject endpoints: people, companies (live docs), their transactions, transaction values and
 * documents. A company is not listed or read at /subject/people.
 */
import { page } from '../state.mjs';
import { formatCents, toCents, convertCents } from '../money.mjs';
import { MONEY_MOVED } from '../domain/subjects/kyc.mjs';

export const PAGE_SIZE = 100;

export function registerSubjectRoutes(api, ctx) {
	api.post('/subject/people', async (request) => {
		const { subject } = ctx.subjects.register(request.body?.person);
		return { data: ctx.subjects.view(subject) };
	});

	api.post('/subject/companies', async (request) => {
		const { subject } = ctx.subjects.registerCompany(request.body?.company);
		return { data: ctx.subjects.view(subject) };
	});

	api.get('/subject/people', async (request) => {
		const query = /** @type {any} */ (request.query);
		const people = [...ctx.state.subjects.values()].filter(
			(subject) => !ctx.subjects.isCompany(subject),
		);
		const list = page(people, query.last_id, PAGE_SIZE);
		return { data: list.map((subject) => ctx.subjects.view(subject)) };
	});

	api.get('/subject/people/:id', async (request) => ({
		data: ctx.subjects.view(ctx.subjects.getPerson(/** @type {any} */ (request.params).id)),
	}));

	api.put('/subject/people/:id', async (request) => {
		const subject = ctx.subjects.update(
			/** @type {any} */ (request.params).id,
			request.body?.person,
		);
		return { data: ctx.subjects.view(subject) };
	});

	api.get('/subject/:id/transactions', async (request) => {
		const subject = ctx.subjects.get(/** @type {any} */ (request.params).id);
		const query = /** @type {any} */ (request.query);
		const all = [...ctx.state.transactions.values()].filter(
			(transaction) => transaction.subject_id === subject.id,
		);
		return {
			data: page(all, query.last_id, PAGE_SIZE).map((transaction) =>
				ctx.transactions.view(transaction),
			),
		};
	});

	/** Total of the subject's transactions whose funds moved (identified, exchanged, wired), in BRL (sandbox rates). */
	api.get('/subject/:id/transaction_values', async (request) => {
		const subject = ctx.subjects.get(/** @type {any} */ (request.params).id);
		let total = 0n;
		let count = 0;
		for (const transaction of ctx.state.transactions.values()) {
			if (transaction.subject_id !== subject.id || !MONEY_MOVED.includes(transaction.status))
				continue;
			total += convertCents(toCents(transaction.value), transaction.currency, 'BRL');
			count++;
		}
		return {
			data: { total_value: formatCents(total), currency: 'BRL', transactions_count: count },
		};
	});

	api.post('/subject/:id/documents', async (request) => {
		const doc = ctx.subjects.addDocument(
			/** @type {any} */ (request.params).id,
			request.body?.document,
		);
		return { data: doc };
	});
}
