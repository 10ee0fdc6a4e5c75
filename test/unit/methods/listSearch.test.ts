import type { IDataObject, IHttpRequestOptions, ILoadOptionsFunctions } from 'n8n-workflow';

import {
	maskDocument,
	searchInvoices,
	searchPseBanks,
	searchSubjects,
	searchSubscriptions,
	searchTransactions,
} from '../../../nodes/FacilitaPay/methods/listSearch';
import { httpError } from '../helpers/serviceAnswers';
import { workflowNode } from '../helpers/workflowNode';

/** A load-options context whose requests are answered by `answer(url, qs)`. */
function loadOptionsContext(answer: (path: string, qs: IDataObject) => unknown) {
	const requests: IHttpRequestOptions[] = [];
	const ctx = {
		getNode: () => workflowNode('n', 'FacilitaPay', 'x'),
		getCredentials: async () => ({
			environment: 'custom',
			baseUrl: 'https://sandbox.test/api/v1',
			authentication: 'accessToken',
			accessToken: 't',
		}),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				requests.push(options);
				const path = String(options.url).replace('https://sandbox.test/api/v1', '');
				return { data: answer(path, (options.qs ?? {}) as IDataObject) };
			},
		},
	} as unknown as ILoadOptionsFunctions;
	return { ctx, requests };
}

const person = (n: number, extra: IDataObject = {}) => ({
	id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
	social_name: `Person ${n}`,
	document_type: 'cpf',
	document_number: `123456789${String(n).padStart(2, '0')}`,
	status: 'approved',
	...extra,
});

describe('Resource Locator pickers', () => {
	it('the subject picker names each person by name, masked document and status, and pages with last_id', async () => {
		const first = Array.from({ length: 100 }, (_, k) => person(k));
		const { ctx, requests } = loadOptionsContext((_path, qs) =>
			qs.last_id ? [person(100)] : first,
		);
		const page1 = await searchSubjects.call(ctx);
		expect(page1.results[1]).toEqual({
			name: 'Person 1 · CPF ***.456.789-** · approved',
			value: person(1).id,
		});
		expect(page1.paginationToken).toBe(person(99).id);
		const page2 = await searchSubjects.call(ctx, undefined, page1.paginationToken);
		expect(requests[1].qs).toEqual({ last_id: person(99).id });
		expect(page2.results).toHaveLength(1);
		expect(page2.paginationToken).toBeUndefined();
	});

	it('the subject picker searches by name or by document digits', async () => {
		const { ctx } = loadOptionsContext(() => [
			person(1),
			person(2, { social_name: 'Maria Silva', document_number: '98765432100' }),
		]);
		expect((await searchSubjects.call(ctx, 'maria')).results.map((r) => r.name)).toEqual([
			'Maria Silva · CPF ***.654.321-** · approved',
		]);
		expect((await searchSubjects.call(ctx, '987.654')).results).toHaveLength(1);
	});

	it('the subscription picker names the customer, value, frequency and status', async () => {
		const { ctx } = loadOptionsContext((path) =>
			path === '/subscriptions'
				? [
						{
							id: 'sub-1',
							subject_id: person(1).id,
							value: '29.90',
							currency: 'BRL',
							frequency: 'month',
							status: 'active',
						},
					]
				: [person(1)],
		);
		expect((await searchSubscriptions.call(ctx)).results).toEqual([
			{ name: 'Person 1 · BRL 29.90 every month · active', value: 'sub-1' },
		]);
	});

	it('the transaction picker lists the transactions of the matching customers by value, method, status and date', async () => {
		const { ctx, requests } = loadOptionsContext((path) => {
			if (path === '/subject/people') return [person(1), person(2, { social_name: 'Other' })];
			return [
				{
					id: 'tx-1',
					value: '150.00',
					currency: 'BRL',
					status: 'pending',
					dynamic_pix_code: '000201…',
					inserted_at: '2026-11-20T10:15:00Z',
				},
			];
		});
		const found = await searchTransactions.call(ctx, 'person');
		expect(found.results).toEqual([
			{ name: 'BRL 150.00 · PIX · pending · 2026-11-20 10:15 · Person 1', value: 'tx-1' },
		]);
		expect(requests.map((r) => String(r.url).split('/api/v1')[1])).toEqual([
			'/subject/people',
			`/subject/${person(1).id}/transactions`,
		]);
	});

	it('the transaction picker writes the date of a live timestamp (microseconds, no zone) the same way', async () => {
		const { ctx } = loadOptionsContext((path) => {
			if (path === '/subject/people') return [person(1)];
			return [
				{
					id: 'tx-2',
					value: '10.00',
					currency: 'BRL',
					status: 'identified',
					subject_is_receiver: true,
					inserted_at: '2025-07-09T13:51:30.989491',
				},
			];
		});
		const found = await searchTransactions.call(ctx, 'person');
		expect(found.results).toEqual([
			{ name: 'BRL 10.00 · payout · identified · 2025-07-09 13:51 · Person 1', value: 'tx-2' },
		]);
	});

	it('the invoice picker names status and subscription', async () => {
		const { ctx } = loadOptionsContext(() => [
			{ id: '2c7e9a14-5b3d', status: 'paid', subscription_id: '6d2f1a3b-8c4e' },
		]);
		expect((await searchInvoices.call(ctx)).results).toEqual([
			{ name: 'Invoice 2c7e9a14 · paid · subscription 6d2f1a3b', value: '2c7e9a14-5b3d' },
		]);
	});

	it('masks documents', () => {
		expect(maskDocument('cpf', '123.456.789-01')).toBe('CPF ***.456.789-**');
		expect(maskDocument('passport', 'AB123456')).toBe('PASSPORT …3456');
	});

	it('the PSE bank picker lists the banks of GET /pse/financial_institutions by name, searchable by name or code', async () => {
		const { ctx, requests } = loadOptionsContext(() => [
			{ financial_institution_code: '1051', financial_institution_name: 'DAVIVIENDA' },
			{ financial_institution_code: '1007', financial_institution_name: 'BANCOLOMBIA' },
			{ code: '1507', name: 'NEQUI' },
			{ name: 'a bank without a code' },
		]);
		expect((await searchPseBanks.call(ctx)).results).toEqual([
			{ name: 'BANCOLOMBIA (1007)', value: '1007' },
			{ name: 'DAVIVIENDA (1051)', value: '1051' },
			{ name: 'NEQUI (1507)', value: '1507' },
		]);
		expect((await searchPseBanks.call(ctx, '1051')).results).toEqual([
			{ name: 'DAVIVIENDA (1051)', value: '1051' },
		]);
		expect(String(requests[0].url)).toBe('https://sandbox.test/api/v1/pse/financial_institutions');
	});

	it('when the PSE bank list cannot be read, the picker says so and points to By ID', async () => {
		const { ctx } = loadOptionsContext(() => {
			throw httpError(404, { error: 'not_found' });
		});
		const error = await searchPseBanks.call(ctx).then(
			() => undefined,
			(thrown: Error & { description?: string }) => thrown,
		);
		expect(error?.message).toMatch(/^FacilitaPay's PSE bank list could not be read: /);
		expect(error?.description).toMatch(/Choose By ID in PSE Bank and enter the PSE code/);
	});
});
