import { digestSecret } from '../../../nodes/FacilitaPayTrigger/secret';
import { httpError } from '../helpers/executeContext';
import {
	BASE_URL,
	PRODUCTION_URL,
	SECRET,
	TEST_URL,
	credentials,
	registeredStaticData,
	runLifecycle,
	runLifecycleExpectingError,
} from './triggerContext';

const NOW = new Date('2025-06-02T10:30:00.000Z');

beforeEach(() => {
	jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
});
afterEach(() => jest.useRealTimers());

describe('create: activating the workflow', () => {
	it('sends the production URL to POST /enable_webhooks and stores only the digest of the secret', async () => {
		const { result, requests, staticData } = await runLifecycle('create', {
			replies: [{ data: { secret: SECRET } }],
		});
		expect(result).toBe(true);
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			url: `${BASE_URL}/enable_webhooks`,
			body: { url: PRODUCTION_URL },
		});
		expect(staticData).toEqual({
			secretDigest: digestSecret(SECRET),
			webhookUrl: PRODUCTION_URL,
			testRegistration: false,
			registeredAt: NOW.toISOString(),
		});
		expect(JSON.stringify(staticData)).not.toContain(`"${SECRET}"`);
	});

	it('"Listen for test event" registers the test URL and marks the registration as a test', async () => {
		const { requests, staticData } = await runLifecycle('create', {
			mode: 'manual',
			replies: [{ data: { secret: '0042' } }],
		});
		expect(requests[0].body).toEqual({ url: TEST_URL });
		expect(staticData).toMatchObject({
			secretDigest: digestSecret('0042'),
			webhookUrl: TEST_URL,
			testRegistration: true,
		});
	});

	it('replaces what an earlier registration stored (a new secret)', async () => {
		const { staticData } = await runLifecycle('create', {
			staticData: registeredStaticData(),
			replies: [{ data: { secret: '5555' } }],
		});
		expect(staticData.secretDigest).toBe(digestSecret('5555'));
	});

	it('fails visibly when FacilitaPay returns no secret, and stores nothing', async () => {
		const { error, staticData } = await runLifecycleExpectingError('create', {
			replies: [{ data: 'ok' }],
		});
		expect(error.message).toBe('FacilitaPay enabled notifications but returned no secret');
		expect(staticData).toEqual({});
	});

	it('passes on the error FacilitaPay answered, and stores nothing', async () => {
		const { error, staticData } = await runLifecycleExpectingError('create', {
			replies: [httpError(401, { error: 'invalid_token' })],
		});
		expect(error.message).toMatch(/refused the credentials: invalid_token/);
		expect(staticData).toEqual({});
	});

	it('warns in the log when n8n gives a URL FacilitaPay cannot reach', async () => {
		const { logger } = await runLifecycle('create', {
			webhookUrl: 'http://localhost:5678/webhook/3f1c/webhook',
			replies: [{ data: { secret: SECRET } }],
		});
		expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/WEBHOOK_URL/));
	});

	it('does not warn when the credentials point at a local sandbox, which can reach it', async () => {
		const { logger } = await runLifecycle('create', {
			webhookUrl: 'http://localhost:5678/webhook/3f1c/webhook',
			credentials: { ...credentials, baseUrl: 'http://127.0.0.1:4010/api/v1' },
			replies: [{ data: { secret: SECRET } }],
		});
		expect(logger.warn).not.toHaveBeenCalled();
	});

	it('does not warn for a public URL', async () => {
		const { logger } = await runLifecycle('create', { replies: [{ data: { secret: SECRET } }] });
		expect(logger.warn).not.toHaveBeenCalled();
	});
});

describe('checkExists: answers from what this node registered', () => {
	it('true when this node registered the URL n8n gives it now', async () => {
		const { result, requests } = await runLifecycle('checkExists', {
			staticData: registeredStaticData(),
		});
		expect(result).toBe(true);
		expect(requests).toHaveLength(0);
	});

	it('false when nothing was registered', async () => {
		const { result, requests } = await runLifecycle('checkExists', { staticData: {} });
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
		const { result, requests } = await runLifecycle('checkExists', { staticData });
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
		expect(staticData).toEqual({});
	});

	it('with Disable Notifications on Deactivation, calls GET /disable_webhooks', async () => {
		const { requests, staticData } = await runLifecycle('delete', {
			parameters: { options: { disableOnDeactivation: true } },
			staticData: registeredStaticData(),
			replies: [{ data: 'ok' }],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', url: `${BASE_URL}/disable_webhooks` });
		expect(staticData).toEqual({});
	});

	it('never disables the account when a test listening ends, even with the option on', async () => {
		const { requests, staticData } = await runLifecycle('delete', {
			mode: 'manual',
			parameters: { options: { disableOnDeactivation: true } },
			staticData: registeredStaticData({ webhookUrl: TEST_URL, testRegistration: true }),
		});
		expect(requests).toHaveLength(0);
		expect(staticData).toEqual({});
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
			replies: [httpError(500, 'Internal Server Error')],
		});
		expect(requests).toHaveLength(1);
		expect(error.message).toMatch(/internal error: Internal Server Error/);
		expect(staticData).toEqual({});
	});
});
