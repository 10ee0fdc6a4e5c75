// What the editor shows for Webhook (the description only); the operations run on n8n's engine in
// test/engine/operations/webhook/webhook.test.mjs.
import { description as enableDescription } from '../../../../nodes/FacilitaPay/actions/webhook/enable.operation';
import { description as disableDescription } from '../../../../nodes/FacilitaPay/actions/webhook/disable.operation';
import { description as resourceDescription } from '../../../../nodes/FacilitaPay/actions/webhook/Webhook.resource';

describe('Webhook > Enable', () => {
	it('says there is one URL per account and that the trigger does this by itself', () => {
		const text = JSON.stringify([enableDescription, resourceDescription]);
		expect(text).toMatch(/ONE webhook URL per account/);
		expect(text).toMatch(/replaces the URL used by any other workflow or system/);
		expect(text).toMatch(/FacilitaPay Trigger node does this by itself/);
	});
});

describe('Webhook > Disable', () => {
	it('warns, in a notice and in the operation list, that ALL notifications of the account stop', () => {
		const notice = disableDescription.find((p) => p.type === 'notice');
		expect(notice?.displayName).toMatch(/turns off ALL notifications of the FacilitaPay account/);
		const operations = resourceDescription[0].options as Array<{
			value: string;
			description: string;
		}>;
		expect(operations.find((o) => o.value === 'disable')?.description).toMatch(/ALL notifications/);
	});
});
