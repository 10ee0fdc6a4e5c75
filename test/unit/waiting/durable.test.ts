import { resumeWebhooks } from '../../../nodes/FacilitaPay/actions/transaction/waitForPayment.operation';
import {
	executionOfResumeUrl,
	instanceTag,
	RESUME_PATH,
	resumeAddress,
	resumeCallUrl,
} from '../../../nodes/FacilitaPay/waiting';

describe('the resume address a charge carries in meta', () => {
	test.each([
		['http://127.0.0.1:5678/webhook-waiting/41?signature=abc', '41'],
		['https://n8n.example.com/webhook-waiting/1234', '1234'],
		['https://n8n.example.com/sub/webhook-waiting/77/suffix', '77'],
		['https://n8n.example.com/webhook/41', undefined],
		['', undefined],
	])('%s names execution %s', (url, id) => {
		expect(executionOfResumeUrl(url)).toBe(id);
	});

	test('names the instance by a tag, not by its ID; another instance has another tag', () => {
		const address = resumeAddress('http://h/webhook-waiting/1', 'instance-a');
		expect(address).toEqual({
			resume_url: 'http://h/webhook-waiting/1',
			instance: instanceTag('instance-a'),
		});
		expect(String(address.instance)).toMatch(/^[0-9a-f]{16}$/);
		expect(JSON.stringify(address)).not.toContain('instance-a');
		expect(instanceTag('instance-b')).not.toBe(instanceTag('instance-a'));
	});
});

describe('where a resume call goes: the Wait for Payment webhook of the execution', () => {
	test.each([
		[
			'http://127.0.0.1:5678/webhook-waiting/41?signature=abc',
			'http://127.0.0.1:5678/webhook-waiting/41/facilitapay-payment?signature=abc',
		],
		[
			'https://n8n.example.com/webhook-waiting/1234',
			'https://n8n.example.com/webhook-waiting/1234/facilitapay-payment',
		],
		[
			'https://n8n.example.com/sub/webhook-waiting/77/',
			'https://n8n.example.com/sub/webhook-waiting/77/facilitapay-payment',
		],
		[
			'https://n8n.example.com/webhook-waiting/9/facilitapay-payment?signature=t',
			'https://n8n.example.com/webhook-waiting/9/facilitapay-payment?signature=t',
		],
	])('%s is called at %s', (resumeUrl, called) => {
		expect(resumeCallUrl(resumeUrl)).toBe(called);
		expect(executionOfResumeUrl(resumeCallUrl(resumeUrl))).toBe(executionOfResumeUrl(resumeUrl));
	});

	test('the node’s resume webhook has that path and answers when the resumed run ends', () => {
		expect(resumeWebhooks).toEqual([
			expect.objectContaining({
				path: RESUME_PATH,
				restartWebhook: true,
				responseMode: 'lastNode',
				responseData: 'noData',
			}),
		]);
	});
});
