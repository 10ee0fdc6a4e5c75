// The ID fields as the editor offers them (the description only); IDs read from them by a running
// node are tested on n8n's engine in test/engine/operations/common/locator.test.mjs.
import { FacilitaPay } from '../../../../nodes/FacilitaPay/FacilitaPay.node';

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
