import type { IDataObject } from 'n8n-workflow';

import {
	processState,
	realDeps,
	resetProcessState,
	runTrigger,
	sameWebhook,
	triggerKey,
} from '../../../nodes/FacilitaPayTrigger/log';
import { FakeLog, FakeTime, triggerContext } from './fakeLog';
import { SECRET, TEST_URL, receive } from './triggerContext';

// The request (nodes/FacilitaPayTrigger/request): a delivery proves nothing, so every well-formed
// notification gets the same answer whatever its secret, starts no execution in production and
// only prompts the reader; a test listening hands it to its execution, which shows the log's record.

beforeEach(() => resetProcessState());

const notification = (secret: unknown): IDataObject => ({
	notification: { type: 'identified', transaction_id: 'tx-1', secret },
});

describe('production: the answer never depends on the secret', () => {
	it.each<[string, unknown]>([
		['the right secret', SECRET],
		['a wrong secret', '0000'],
		['a secret as a number', 3718],
		['no secret', undefined],
		['an absurd secret', { nested: 'x'.repeat(100) }],
	])(
		'%s: 200 {"message":"Received"}, no execution from the request, the reader prompted',
		async (_name, secret) => {
			const prompt = jest.fn();
			processState.readers.set(triggerKey('workflow-a', 'trigger-1'), { prompt, stop: jest.fn() });
			const { responseData, response, requests } = await receive({
				workflowId: 'workflow-a',
				bodyData: notification(secret),
			});
			expect(response).toMatchObject({ statusCode: 200, body: { message: 'Received' } });
			expect(responseData).toEqual({ noWebhookResponse: true });
			expect(requests).toEqual([]);
			expect(prompt).toHaveBeenCalledTimes(1);
		},
	);

	it('the KYC status payload (no wrapper, no secret) gets the same answer and prompts with its subject', async () => {
		const prompt = jest.fn();
		const promptKyc = jest.fn(() => true);
		processState.readers.set(triggerKey('workflow-k', 'trigger-1'), {
			prompt,
			promptKyc,
			stop: jest.fn(),
		});
		const { responseData, response } = await receive({
			workflowId: 'workflow-k',
			bodyData: { data: { id: 'subj-1', status: 'approved' } },
		});
		expect(response).toMatchObject({ statusCode: 200, body: { message: 'Received' } });
		expect(responseData.workflowData).toBeUndefined();
		expect(promptKyc).toHaveBeenCalledWith('subj-1');
	});

	it.each<[string, boolean | undefined]>([
		['no reader runs in this process (a queue-mode webhook processor)', undefined],
		["the reader's subjects to check are full", false],
	])(
		'a KYC status payload nobody here can take (%s): 503, so FacilitaPay sends it again instead of a 200 that drops it',
		async (_name, taken) => {
			if (taken !== undefined)
				processState.readers.set(triggerKey('workflow-f', 'trigger-1'), {
					prompt: jest.fn(),
					promptKyc: jest.fn(() => taken),
					stop: jest.fn(),
				});
			const { response, responseData } = await receive({
				workflowId: 'workflow-f',
				bodyData: { data: { id: 'subj-1', status: 'approved' } },
			});
			expect(response).toMatchObject({
				statusCode: 503,
				body: { message: 'Not taken now; send it again later' },
			});
			expect(responseData).toEqual({ noWebhookResponse: true });
		},
	);

	it('no reader in this process (a queue-mode webhook processor): the same answer; the leader polls the log', async () => {
		const { response, responseData } = await receive({ bodyData: notification('0000') });
		expect(response).toMatchObject({ statusCode: 200, body: { message: 'Received' } });
		expect(responseData).toEqual({ noWebhookResponse: true });
	});

	it.each<[string, unknown, number, string]>([
		['not JSON', '{oops', 400, 'The body is not JSON'],
		['"notification" not an object', { notification: 'x' }, 400, '"notification" is not an object'],
		[
			'a notification without type',
			{ notification: { secret: SECRET } },
			400,
			'The notification has no type',
		],
		['something else', { hello: 'world' }, 401, 'Not a FacilitaPay notification'],
	])(
		'a body that is no notification (%s) is refused the same way under any secret',
		async (_n, body, status, message) => {
			const { response, responseData } = await receive({ bodyData: body });
			expect(response.statusCode).toBe(status);
			expect(String((response.body as IDataObject).message)).toContain(message);
			expect(responseData.workflowData).toBeUndefined();
		},
	);
});

describe('"Listen for test event"', () => {
	/**
	 * "Listen for test event" on `workflowId`: its trigger() running in manual mode on a fake log and
	 * clock. `deliver()` hands the trigger a delivery to the test URL, as n8n does.
	 */
	async function listenForTestEvent(workflowId: string) {
		const log = new FakeLog();
		const harness = triggerContext(log, { mode: 'manual', workflowId });
		const time = new FakeTime(realDeps.request);
		const started = await runTrigger(harness.ctx, time);
		const deliver = (transactionId: string, secret: string) =>
			processState.tests.set(triggerKey(workflowId, 'trigger-1'), {
				url: TEST_URL,
				notification: { type: 'identified', transaction_id: transactionId, secret },
				at: 0,
			});
		return { log, harness, time, started, deliver };
	}

	it('the delivery starts the test execution, whose trigger() emits FacilitaPay record of it (verified)', async () => {
		const { log, harness, time, started, deliver } = await listenForTestEvent('workflow-t');
		const record = log.add(TEST_URL, {
			type: 'identified',
			transaction_id: 'tx-test',
			secret: SECRET,
		});
		deliver('tx-test', 'any');
		await time.advance(500);
		expect(harness.emitted).toEqual([
			[
				expect.objectContaining({
					type: 'identified',
					transaction_id: 'tx-test',
					verified: true,
					notificationRecord: expect.objectContaining({ id: record.id }),
				}),
			],
		]);
		await started.closeFunction?.();
	});

	it('a test delivery the log does not list within 5 reads is shown unverified, its fields under unverifiedFields', async () => {
		const { log, harness, time, started, deliver } = await listenForTestEvent('workflow-u');
		deliver('tx-forged', 'x');
		await time.advance(6_000);
		expect(harness.emitted).toEqual([
			[
				expect.objectContaining({
					type: 'identified',
					unverifiedFields: { transaction_id: 'tx-forged' },
					verified: false,
				}),
			],
		]);
		expect(log.lines().filter((line) => line.startsWith('GET'))).toHaveLength(5);
		await started.closeFunction?.();
	});

	it('webhook() in a test listening answers the same, hands the delivery over and returns workflowData so n8n starts the execution', async () => {
		const { response, responseData } = await receive({
			workflowId: 'workflow-m',
			mode: 'manual',
			bodyData: notification('1234'),
		});
		expect(response).toMatchObject({ statusCode: 200, body: { message: 'Received' } });
		expect(responseData.workflowData).toEqual([[{ json: { type: 'identified' } }]]);
		expect(processState.tests.get(triggerKey('workflow-m', 'trigger-1'))).toMatchObject({
			url: TEST_URL,
			notification: { type: 'identified', transaction_id: 'tx-1', secret: '1234' },
		});
	});
});

describe('the test delivery and its record', () => {
	it.each<[string, string, boolean]>([
		[TEST_URL, TEST_URL, true],
		[TEST_URL, 'https://n8n.example.com/webhook/3f1c/webhook', true],
		[TEST_URL, 'https://n8n.example.com/webhook-test/other/webhook', false],
		[TEST_URL, 'https://elsewhere.example.com/hook', false],
	])('%s and %s are the same webhook: %s', (a, b, same) => {
		expect(sameWebhook(a, b)).toBe(same);
	});
});
