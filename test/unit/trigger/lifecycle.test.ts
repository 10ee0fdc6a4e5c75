import { resetProcessState } from '../../../nodes/FacilitaPayTrigger/log';
import { legacyDigest } from '../../../nodes/FacilitaPayTrigger/registration';
import { httpError } from '../helpers/serviceAnswers';
import {
	BASE_URL,
	hmacOf,
	PRODUCTION_URL,
	SECRET,
	TEST_URL,
	credentials,
	registeredStaticData,
	runLifecycle,
	runLifecycleExpectingError,
} from './triggerContext';

const NOW = new Date('2025-06-02T10:30:00.000Z');

type HookOptionsLike = { active?: boolean; replies?: unknown[] };

beforeEach(() => {
	resetProcessState();
	jest.useFakeTimers({
		now: NOW,
		doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'],
	});
});
afterEach(() => jest.useRealTimers());

describe('create: activating the workflow', () => {
	it('sends the production URL to POST /enable_webhooks and stores only the keyed HMAC of the secret', async () => {
		const { result, requests, staticData } = await runLifecycle('create', {
			replies: [{ data: [] }, { data: { secret: SECRET } }],
		});
		expect(result).toBe(true);
		expect(requests).toHaveLength(2);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			url: `${BASE_URL}/notifications`,
		});
		expect(requests[1]).toMatchObject({
			method: 'POST',
			url: `${BASE_URL}/enable_webhooks`,
			body: { url: PRODUCTION_URL },
		});
		expect(staticData).toEqual({
			secretHmac: hmacOf(SECRET),
			webhookUrl: PRODUCTION_URL,
			testRegistration: false,
			registeredAt: NOW.toISOString(),
			ownUrls: [PRODUCTION_URL],
			ownUrlsInstance: 'instance-1',
			keyCheck: expect.stringMatching(/^[0-9a-f]{16}$/),
			// The account the URL is registered with (the reader tells when the credentials leave it).
			registeredAccount: expect.stringMatching(/^https:\/\/sandbox\.test\/api\/v1\|[0-9a-f]{16}$/),
			// The log's cursor, set from the read before enable_webhooks (an empty log: from its start).
			log: { cursor: null, since: NOW.toISOString(), started: [] },
		});
		expect(JSON.stringify(staticData)).not.toContain(`"${SECRET}"`);
		expect(JSON.stringify(staticData)).not.toContain(legacyDigest(SECRET));
	});

	it("sets the log's cursor at the newest record listed BEFORE enable_webhooks, and keeps it on a re-publish", async () => {
		const newest = {
			id: 'rec-newest',
			url: 'https://elsewhere.example.com/hook',
			inserted_at: '2025-06-02T10:00:00',
			notification: { type: 'identified', transaction_id: 'old' },
		};
		const first = await runLifecycle('create', {
			replies: [{ data: [newest] }, { data: { secret: SECRET } }],
		});
		expect(first.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
			`GET ${BASE_URL}/notifications`,
			`POST ${BASE_URL}/enable_webhooks`,
		]);
		expect(first.staticData.log).toEqual({
			cursor: 'rec-newest',
			since: NOW.toISOString(),
			started: [],
		});
		const kept = { cursor: 'rec-later', since: '2025-06-01T00:00:00.000Z', started: ['rec-x'] };
		const again = await runLifecycle('create', {
			staticData: { ...first.staticData, log: kept },
			replies: [{ data: [{ ...newest, id: 'rec-even-later' }] }, { data: { secret: SECRET } }],
		});
		expect(again.staticData.log).toEqual(kept);
	});

	it('when the ownership read fails, reads the newest record again for the cursor; activation fails if that fails too', async () => {
		const { staticData, requests } = await runLifecycle('create', {
			replies: [
				httpError(503, 'down'),
				{ data: [{ id: 'rec-7', url: 'u', notification: {} }] },
				{ data: { secret: SECRET } },
			],
		});
		expect(requests.map((request) => request.qs)).toEqual([
			{ order_by: 'desc', per_page: '10' },
			{ order_by: 'desc', per_page: '1' },
			undefined,
		]);
		expect(staticData.log).toMatchObject({ cursor: 'rec-7' });
	});

	it('a secret returned as a number is kept under the same rule', async () => {
		const { staticData } = await runLifecycle('create', {
			replies: [{ data: [] }, { data: { secret: 3718 } }],
		});
		expect(staticData.secretHmac).toBe(hmacOf(SECRET));
	});

	it('says in the log when it takes the URL over from another system', async () => {
		const { logger, requests } = await runLifecycle('create', {
			replies: [
				{
					data: [
						{
							id: 'n1',
							url: 'https://other.example.com/hooks/abc',
							inserted_at: '2025-06-02T09:00:00Z',
						},
					],
				},
				{ data: { secret: SECRET } },
			],
		});
		expect(requests).toHaveLength(2);
		expect(logger.warn).toHaveBeenCalledWith(
			expect.stringMatching(/https:\/\/other\.example\.com\/… until now/),
		);
		expect(logger.warn).not.toHaveBeenCalledWith(expect.stringMatching(/hooks\/abc/));
	});

	it('"Listen for test event" on an account that has sent nothing yet registers the test URL, marked as a test', async () => {
		const { requests, staticData } = await runLifecycle('create', {
			mode: 'manual',
			replies: [{ data: [] }, { data: { secret: '0042' } }],
		});
		expect(requests[1].body).toEqual({ url: TEST_URL });
		expect(staticData).toMatchObject({
			secretHmac: hmacOf('0042'),
			webhookUrl: TEST_URL,
			testRegistration: true,
		});
	});

	it.each<[string, HookOptionsLike, RegExp]>([
		[
			'the newest notification went to the production URL (n8n gives a test empty static data)',
			{ replies: [{ data: [{ url: PRODUCTION_URL, inserted_at: '2025-06-01T00:00:00Z' }] }] },
			/away from https:\/\/n8n\.example\.com\/…/,
		],
		[
			'the notification records cannot be read',
			{ replies: [httpError(500, 'down')] },
			/away from wherever they go now/,
		],
	])(
		'"Listen for test event" is refused up front when %s: nothing registered, the message says what to do',
		async (_name, options, message) => {
			const { error, requests, staticData } = await runLifecycleExpectingError('create', {
				mode: 'manual',
				...options,
			});
			expect(error.message).toMatch(message);
			expect(error.description).toMatch(/local sandbox.*second FacilitaPay account/);
			expect(requests.filter((request) => /enable_webhooks/.test(String(request.url)))).toEqual([]);
			expect(staticData).toEqual({});
		},
	);

	it('"Listen for test event" while this process activated the workflow (n8n gives the test empty static data and says the workflow is inactive): refused; after deactivation: registered', async () => {
		await runLifecycle('create', { replies: [{ data: [] }, { data: { secret: SECRET } }] });
		const refused = await runLifecycleExpectingError('create', {
			mode: 'manual',
			replies: [{ data: [] }],
		});
		expect(refused.error.message).toMatch(/away from this workflow, which is active/);
		expect(refused.requests.map((request) => request.url)).toEqual([`${BASE_URL}/notifications`]);

		await runLifecycle('delete', { staticData: registeredStaticData() });
		const { requests } = await runLifecycle('create', {
			mode: 'manual',
			replies: [{ data: [] }, { data: { secret: '0042' } }],
		});
		expect(requests[1].body).toEqual({ url: TEST_URL });
	});

	it('an activation found in place at n8n start (checkExists) counts too', async () => {
		await runLifecycle('checkExists', {
			staticData: registeredStaticData(),
			replies: [{ data: [{ url: PRODUCTION_URL, inserted_at: '2025-06-01T00:00:00Z' }] }],
		});
		const refused = await runLifecycleExpectingError('create', {
			mode: 'manual',
			replies: [{ data: [] }],
		});
		expect(refused.error.message).toMatch(/this workflow, which is active/);
	});

	it('replaces what an earlier registration stored (a new secret); the old one is not kept (the records settle redeliveries under it)', async () => {
		const { staticData } = await runLifecycle('create', {
			staticData: registeredStaticData(),
			replies: [{ data: [] }, { data: { secret: '5555' } }],
		});
		expect(staticData.secretHmac).toBe(hmacOf('5555'));
		expect(JSON.stringify(staticData)).not.toContain(hmacOf(SECRET));
	});

	it('on another n8n instance (a workflow exported with its static data), the URLs the first instance registered are not kept as its own', async () => {
		const stagingUrl = 'https://staging.example.com/webhook/3f1c/webhook';
		const { staticData } = await runLifecycle('create', {
			staticData: registeredStaticData({
				ownUrls: [PRODUCTION_URL],
				ownUrlsInstance: 'instance-a',
			}),
			webhookUrl: stagingUrl,
			instanceId: 'instance-b',
			replies: [{ data: [] }, { data: { secret: '5555' } }],
		});
		expect(staticData.ownUrls).toEqual([stagingUrl]);
		expect(staticData.ownUrlsInstance).toBe('instance-b');
	});

	it('fails visibly when FacilitaPay returns no secret, and stores nothing', async () => {
		const { error, staticData } = await runLifecycleExpectingError('create', {
			replies: [{ data: [] }, { data: 'ok' }],
		});
		expect(error.message).toBe('FacilitaPay enabled notifications but returned no secret');
		// No registration; only the log's cursor, which predates any enabling and stays valid.
		expect(staticData).toEqual({ log: { cursor: null, since: NOW.toISOString(), started: [] } });
	});

	it('passes on the error FacilitaPay answered, and stores nothing', async () => {
		const { error, staticData } = await runLifecycleExpectingError('create', {
			replies: [{ data: [] }, httpError(401, { error: 'invalid_token' })],
		});
		expect(error.message).toMatch(/refused the credentials: invalid_token/);
		expect(staticData).toEqual({ log: { cursor: null, since: NOW.toISOString(), started: [] } });
	});

	it('warns in the log when n8n gives a URL FacilitaPay cannot reach', async () => {
		const { logger } = await runLifecycle('create', {
			webhookUrl: 'http://localhost:5678/webhook/3f1c/webhook',
			replies: [{ data: [] }, { data: { secret: SECRET } }],
		});
		expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/WEBHOOK_URL/));
	});

	it('does not warn when the credentials point at a local sandbox, which can reach it', async () => {
		const { logger } = await runLifecycle('create', {
			webhookUrl: 'http://localhost:5678/webhook/3f1c/webhook',
			credentials: { ...credentials, baseUrl: 'http://127.0.0.1:4010/api/v1' },
			replies: [{ data: [] }, { data: { secret: SECRET } }],
		});
		expect(logger.warn).not.toHaveBeenCalled();
	});

	it('does not warn for a public URL', async () => {
		const { logger } = await runLifecycle('create', {
			replies: [{ data: [] }, { data: { secret: SECRET } }],
		});
		expect(logger.warn).not.toHaveBeenCalled();
	});
});

describe('checkExists: answers from what this node registered', () => {
	it('true when this node registered the URL n8n gives it now and the newest notification went there', async () => {
		const { result, requests, logger } = await runLifecycle('checkExists', {
			staticData: registeredStaticData(),
			replies: [
				{
					data: [
						{
							id: 'n1',
							url: PRODUCTION_URL,
							inserted_at: '2025-06-02T09:00:00Z',
						},
					],
				},
			],
		});
		expect(result).toBe(true);
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'GET',
			url: `${BASE_URL}/notifications`,
			qs: { order_by: 'desc' },
		});
		expect(logger.warn).not.toHaveBeenCalled();
	});

	it('does not fight silently: another URL in the newest records is logged, the URL is left alone', async () => {
		const { result, requests, logger, staticData } = await runLifecycle('checkExists', {
			staticData: registeredStaticData(),
			replies: [
				{
					data: [
						{
							id: 'n2',
							url: 'https://erp.example.com/facilitapay/tok3n',
							inserted_at: '2025-06-02T10:00:00Z',
						},
						{
							id: 'n1',
							url: PRODUCTION_URL,
							inserted_at: '2025-06-02T09:00:00Z',
						},
					],
				},
			],
		});
		expect(result).toBe(true);
		expect(requests).toHaveLength(1);
		expect(logger.warn).toHaveBeenCalledWith(
			expect.stringMatching(
				/now sends this account's notifications to https:\/\/erp\.example\.com\/….*deactivate and activate this workflow/,
			),
		);
		expect(logger.warn).not.toHaveBeenCalledWith(expect.stringMatching(/tok3n/));
		expect(staticData.urlTakenBy).toBe('https://erp.example.com/…');
	});

	it('the test URL of the same node is not "another system"', async () => {
		const { logger } = await runLifecycle('checkExists', {
			staticData: registeredStaticData({ ownUrls: [PRODUCTION_URL, TEST_URL] }),
			replies: [
				{
					data: [{ id: 'n1', url: TEST_URL, inserted_at: '2025-06-02T09:00:00Z' }],
				},
			],
		});
		expect(logger.warn).not.toHaveBeenCalled();
	});

	it('stays true when the records cannot be read', async () => {
		const { result } = await runLifecycle('checkExists', {
			staticData: registeredStaticData(),
			replies: [httpError(500, 'boom')],
		});
		expect(result).toBe(true);
	});

	it('migrates the unkeyed SHA-256 of an earlier version to the keyed HMAC of the same secret, without registering again', async () => {
		const staticData = {
			secretDigest: legacyDigest('0042'),
			webhookUrl: PRODUCTION_URL,
			testRegistration: false,
		};
		const { result } = await runLifecycle('checkExists', {
			staticData,
			replies: [{ data: [] }],
		});
		expect(result).toBe(true);
		expect(staticData).not.toHaveProperty('secretDigest');
		expect(staticData).toMatchObject({ secretHmac: hmacOf('0042') });
	});

	it('false when nothing was registered', async () => {
		const { result, requests } = await runLifecycle('checkExists', {
			staticData: {},
		});
		expect(result).toBe(false);
		expect(requests).toHaveLength(0);
	});

	it('false for a test listening while the production URL is registered, so the test URL gets registered', async () => {
		const { result } = await runLifecycle('checkExists', {
			mode: 'manual',
			staticData: registeredStaticData(),
		});
		expect(result).toBe(false);
	});

	it('false when the URL is stored without a secret, and nothing is deleted', async () => {
		const staticData = { webhookUrl: PRODUCTION_URL };
		const { result, requests } = await runLifecycle('checkExists', {
			staticData,
		});
		expect(result).toBe(false);
		expect(requests).toHaveLength(0);
		expect(staticData).toEqual({ webhookUrl: PRODUCTION_URL });
	});
});

describe('delete: deactivating the workflow', () => {
	it('by default forgets the secret and leaves the account alone (no request)', async () => {
		const { result, requests, staticData } = await runLifecycle('delete', {
			staticData: registeredStaticData(),
		});
		expect(result).toBe(true);
		expect(requests).toHaveLength(0);
		expect(staticData).toEqual({ ownUrls: [PRODUCTION_URL] });
	});

	it('with Disable Notifications on Deactivation, calls GET /disable_webhooks when the notifications are ours', async () => {
		const { requests, staticData } = await runLifecycle('delete', {
			parameters: { options: { disableOnDeactivation: true } },
			staticData: registeredStaticData(),
			replies: [{ data: [{ id: 'n1', url: PRODUCTION_URL }] }, { data: 'ok' }],
		});
		expect(requests).toHaveLength(2);
		expect(requests[1]).toMatchObject({
			method: 'GET',
			url: `${BASE_URL}/disable_webhooks`,
		});
		expect(staticData).not.toHaveProperty('secretHmac');
	});

	it("disables when FacilitaPay has sent no notification yet (nothing says they are someone else's)", async () => {
		const { requests } = await runLifecycle('delete', {
			parameters: { options: { disableOnDeactivation: true } },
			staticData: registeredStaticData(),
			replies: [{ data: [] }, { data: 'ok' }],
		});
		expect(requests.map((r) => r.url)).toEqual([
			`${BASE_URL}/notifications`,
			`${BASE_URL}/disable_webhooks`,
		]);
	});

	it('never disables notifications that go to another URL, whatever the option says', async () => {
		const { requests, logger } = await runLifecycle('delete', {
			parameters: { options: { disableOnDeactivation: true } },
			staticData: registeredStaticData(),
			replies: [{ data: [{ id: 'n2', url: 'https://erp.example.com/hook' }] }],
		});
		expect(requests.map((r) => r.url)).toEqual([`${BASE_URL}/notifications`]);
		expect(logger.warn).toHaveBeenCalledWith(
			expect.stringMatching(/NOT disabled.*erp\.example\.com/),
		);
	});

	it('does not disable when it cannot tell whose the notifications are', async () => {
		const { requests, logger } = await runLifecycle('delete', {
			parameters: { options: { disableOnDeactivation: true } },
			staticData: registeredStaticData(),
			replies: [httpError(500, 'boom')],
		});
		expect(requests).toHaveLength(1);
		expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/NOT disabled/));
	});

	it('never disables the account when a test listening ends, even with the option on', async () => {
		const { requests, staticData } = await runLifecycle('delete', {
			mode: 'manual',
			parameters: { options: { disableOnDeactivation: true } },
			staticData: registeredStaticData({
				webhookUrl: TEST_URL,
				testRegistration: true,
			}),
		});
		expect(requests).toHaveLength(0);
		expect(staticData).not.toHaveProperty('secretHmac');
	});

	it('does not disable anything when this node had registered nothing', async () => {
		const { requests } = await runLifecycle('delete', {
			parameters: { options: { disableOnDeactivation: true } },
			staticData: {},
		});
		expect(requests).toHaveLength(0);
	});

	it('rethrows when disabling fails (the secret is forgotten all the same)', async () => {
		const { error, requests, staticData } = await runLifecycleExpectingError('delete', {
			parameters: { options: { disableOnDeactivation: true } },
			staticData: registeredStaticData(),
			replies: [{ data: [] }, httpError(500, 'Internal Server Error')],
		});
		expect(requests).toHaveLength(2);
		expect(error.message).toMatch(/internal error: Internal Server Error/);
		expect(staticData).not.toHaveProperty('secretHmac');
	});
});

describe('credentials changed, and several workflows on one account', () => {
	it('checkExists notices credentials changed since the registration (a new token) and registers again', async () => {
		const { staticData: registered } = await runLifecycle('create', {
			replies: [{ data: [] }, { data: { secret: SECRET } }],
		});
		const changed = { ...credentials, accessToken: 'rotated-token' };
		const { result, logger } = await runLifecycle('checkExists', {
			staticData: { ...registered },
			credentials: changed,
		});
		expect(result).toBe(false);
		expect(logger.info).toHaveBeenCalledWith(expect.stringMatching(/credentials changed/));
		const same = await runLifecycle('checkExists', {
			staticData: { ...registered },
			replies: [{ data: [] }],
		});
		expect(same.result).toBe(true);
	});

	it('a registration of an earlier version (no key check) is kept, and the check stored', async () => {
		const { result, staticData } = await runLifecycle('checkExists', {
			staticData: registeredStaticData(),
			replies: [{ data: [] }],
		});
		expect(result).toBe(true);
		expect(staticData.keyCheck).toMatch(/^[0-9a-f]{16}$/);
	});

	it('A unpublished with Disable Notifications on Deactivation while B (same service, another token) is active: nothing disabled', async () => {
		const { staticData: a } = await runLifecycle('create', {
			workflowId: 'wf-A',
			replies: [{ data: [] }, { data: { secret: SECRET } }],
		});
		await runLifecycle('create', {
			workflowId: 'wf-B',
			webhookUrl: 'https://n8n.example.com/webhook/b/webhook',
			credentials: { ...credentials, accessToken: 'token-of-b' },
			replies: [{ data: [] }, { data: { secret: '5555' } }],
		});
		const { requests, logger } = await runLifecycle('delete', {
			workflowId: 'wf-A',
			staticData: a,
			parameters: { options: { disableOnDeactivation: true } },
			replies: [{ data: [] }],
		});
		expect(requests.map((request) => request.url)).not.toContain(`${BASE_URL}/disable_webhooks`);
		expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/wf-B/));
	});
});
