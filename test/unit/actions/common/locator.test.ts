import { FacilitaPay } from '../../../../nodes/FacilitaPay/FacilitaPay.node';
import { runNode, runNodeExpectingError } from '../../helpers/executeContext';

describe('ID fields are Resource Locators', () => {
	it('every subject, subscription, transaction and invoice ID is a Resource Locator with From List and By ID', () => {
		const properties = new FacilitaPay().description.properties;
		const idNames = ['subjectId', 'subscriptionId', 'transactionId', 'invoiceId'];
		const locators = properties.filter((p) => idNames.includes(p.name));
		expect(locators.length).toBeGreaterThanOrEqual(20);
		for (const property of locators) {
			expect(property.type).toBe('resourceLocator');
			expect(property.modes?.map((m) => m.name)).toEqual(['list', 'id']);
			const list = property.modes?.[0];
			expect(list?.typeOptions?.searchListMethod).toMatch(
				/^search(Subjects|Subscriptions|Transactions|Invoices)$/,
			);
			const method = list?.typeOptions?.searchListMethod as string;
			expect(typeof (new FacilitaPay().methods.listSearch as Record<string, unknown>)[method]).toBe(
				'function',
			);
			expect(property.modes?.[1].validation?.[0]).toMatchObject({ type: 'regex' });
		}
	});
});

describe('IDs from a locator, and from workflows saved before it', () => {
	it('reads the ID of a locator value picked from the list', async () => {
		const { requests } = await runNode({
			parameters: {
				resource: 'transaction',
				operation: 'get',
				transactionId: { __rl: true, mode: 'list', value: 'tx-9' },
				simplify: false,
			},
			replies: [{ data: { id: 'tx-9' } }],
		});
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/transactions/tx-9');
	});

	it('still reads a plain string ID saved by an older workflow', async () => {
		const { requests } = await runNode({
			parameters: {
				resource: 'subject',
				operation: 'get',
				subjectId: '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c',
				simplify: false,
			},
			replies: [{ data: { id: 'x' } }],
		});
		expect(requests[0].url).toBe(
			'https://sandbox.test/api/v1/subject/people/4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c',
		);
	});

	it.each(['..', '.', '%2e%2e', 'a.b', 'tx 1', 'tx/1', 'tx?x=1', 'ａ'])(
		'refuses the path ID %j before sending (HTTP clients would turn dots into another endpoint)',
		async (id) => {
			const { error, requests } = await runNodeExpectingError({
				parameters: {
					resource: 'transaction',
					operation: 'refund',
					transactionId: { __rl: true, mode: 'id', value: id },
				},
				replies: [{ data: {} }],
			});
			expect(requests).toHaveLength(0);
			expect(error.message).toMatch(/^Invalid Transaction ID \(item 0\)/);
		},
	);
});
