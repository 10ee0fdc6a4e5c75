// Marketplace Account > Request Authorization, Request Bank Account and Get Bank Account Request on
// n8n's engine, against a FacilitaPay scripted by route. What the editor shows (hints, notices) is
// read from the description in test/unit/actions/marketplaceAccount/marketplaceAccount.description.test.ts.
import { reply, RESET, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { SUBJECT_ID } from '../../../fixtures/subjects.js';

const REQUEST_ID = '5e0c1f4a-2b3d-4c6e-8f9a-0b1c2d3e4f5a';
const AUTHORIZE = 'POST /subject/:id/account_request';
const OPEN = 'POST /bank/accounts/request';
const STATUS = 'GET /bank/accounts/request/:id';

const op = useOperations();
const waits = skipRetryWaits();

const byId = (value) => ({ __rl: true, mode: 'id', value });
const authorization = {
	data: {
		id: 'auth-1',
		subject_id: SUBJECT_ID,
		status: 'pending',
		reason: null,
		is_subject_account_owner: false,
	},
};
const bankRequest = {
	data: { id: REQUEST_ID, subject_id: SUBJECT_ID, status: 'processing', errors: null },
};

describe('Marketplace Account > Request Authorization', () => {
	const params = (options = {}, subjectId = byId(SUBJECT_ID)) => ({
		resource: 'marketplaceAccount',
		operation: 'requestAuthorization',
		subjectId,
		options,
	});

	it('posts with no body when Subject Is Account Owner is not set', async () => {
		const { items, requests, error } = await op.run({
			parameters: params(),
			replies: { [AUTHORIZE]: authorization },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			route: AUTHORIZE,
			params: { id: SUBJECT_ID },
		});
		expect(requests[0].body).toBeUndefined();
		expect(items[0].json).toEqual(authorization.data);
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it.each([
		[true, true],
		[false, false],
	])('sends is_subject_account_owner %p as the boolean %p', async (value, sent) => {
		const { requests } = await op.run({
			parameters: params({ isSubjectAccountOwner: value }),
			replies: { [AUTHORIZE]: authorization },
		});
		expect(requests[0].body).toEqual({ is_subject_account_owner: sent });
	});

	it.each([
		['true', true],
		['FALSE', false],
	])('from an expression, the text %p is sent as the boolean %p', async (value, sent) => {
		const { requests, error } = await op.run({
			parameters: params({ isSubjectAccountOwner: '={{ $json.owner }}' }),
			items: [{ json: { owner: value } }],
			replies: { [AUTHORIZE]: authorization },
		});
		expect(error).toBeUndefined();
		expect(requests[0].body).toEqual({ is_subject_account_owner: sent });
	});

	it('typed in, a subject id that is not a UUID is refused by the locator before the workflow starts', async () => {
		const { error, requests } = await op.run({ parameters: params({}, byId('12345')) });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
		expect(error.message).toMatch(/Not a valid subject ID: it is a UUID/);
	});

	it.each([
		[
			'a subject id that is not a UUID',
			{ subject: '12345' },
			/Invalid Subject ID \(item 0\): is not an id/,
		],
		['an empty subject id', { subject: '' }, /Invalid Subject ID \(item 0\): is empty/],
		[
			'an owner flag that is not yes or no',
			{ subject: SUBJECT_ID, owner: 'maybe' },
			/Invalid Subject Is Account Owner \(item 0\): is "maybe"; it must be true or false/,
		],
	])('refuses %s and sends nothing', async (_name, json, message) => {
		const { error, requests } = await op.run({
			parameters: params(
				'owner' in json ? { isSubjectAccountOwner: '={{ $json.owner }}' } : {},
				byId('={{ $json.subject }}'),
			),
			items: [{ json }],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('is sent once: a 503 is not repeated', async () => {
		const { requests, error } = await op.run({
			parameters: params(),
			replies: { [AUTHORIZE]: reply(503, 'busy') },
		});
		expect(error).toBeDefined();
		expect(requests).toHaveLength(1);
		expect(waits).toHaveLength(0);
	});
});

describe('Marketplace Account > Request Bank Account', () => {
	const params = (options = {}, subjectId = byId(SUBJECT_ID)) => ({
		resource: 'marketplaceAccount',
		operation: 'requestBankAccount',
		subjectId,
		options,
	});

	it('posts the subject_id only when the owner flag is not set', async () => {
		const { items, requests } = await op.run({
			parameters: params({}, byId(SUBJECT_ID.toUpperCase())),
			replies: { [OPEN]: bankRequest },
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', route: OPEN });
		expect(requests[0].body).toEqual({ subject_id: SUBJECT_ID });
		expect(items[0].json).toEqual(bankRequest.data);
	});

	it.each([
		[true, 'true'],
		[false, 'false'],
	])(
		'sends is_subject_account_owner %p as the text "%s", as the spec lists it',
		async (value, sent) => {
			const { requests } = await op.run({
				parameters: params({ isSubjectAccountOwner: value }),
				replies: { [OPEN]: bankRequest },
			});
			expect(requests[0].body).toEqual({ subject_id: SUBJECT_ID, is_subject_account_owner: sent });
		},
	);

	it('typed in, a subject id that is not a UUID is refused by the locator before the workflow starts', async () => {
		const { error, requests } = await op.run({ parameters: params({}, byId('subject-1')) });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Not a valid subject ID: it is a UUID/);
	});

	it('refuses a subject id that is not a UUID and sends nothing', async () => {
		const { error, requests } = await op.run({
			parameters: params({}, byId('={{ $json.subject }}')),
			items: [{ json: { subject: 'subject-1' } }],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Subject ID \(item 0\): is not an id/);
		expect(error.description).toContain('Nothing was sent to FacilitaPay');
	});

	it('is sent once: a closed connection is not repeated', async () => {
		const { requests, error } = await op.run({
			parameters: params(),
			replies: { [OPEN]: [RESET, bankRequest] },
		});
		expect(requests).toHaveLength(1);
		expect(error.description).toMatch(/was not repeated/);
	});

	it('shows the service’s refusal when no approved authorisation exists', async () => {
		const { error } = await op.run({
			parameters: params(),
			replies: {
				[OPEN]: reply(400, { errors: { subject_id: ['has no approved account authorization'] } }),
			},
		});
		expect(error.message).toMatch(
			/rejected the request \(item 0\): subject_id: has no approved account authorization/,
		);
	});
});

describe('Marketplace Account > Get Bank Account Request', () => {
	const params = (requestId) => ({
		resource: 'marketplaceAccount',
		operation: 'getBankAccountRequest',
		requestId,
	});

	it('gets /bank/accounts/request/:id and returns the request with its bank account', async () => {
		const complete = {
			data: {
				...bankRequest.data,
				status: 'complete',
				bank_account: { id: 'ba-1', account_number: '123' },
			},
		};
		const { items, requests } = await op.run({
			parameters: params(` ${REQUEST_ID} `),
			replies: { [STATUS]: complete },
		});
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', route: STATUS, params: { id: REQUEST_ID } });
		expect(items[0].json).toEqual(complete.data);
	});

	it('is retried after a 503 (a read)', async () => {
		const { requests, items } = await op.run({
			parameters: params(REQUEST_ID),
			replies: { [STATUS]: [reply(503, 'busy'), bankRequest] },
		});
		expect(requests).toHaveLength(2);
		expect(waits).toHaveLength(1);
		expect(items[0].json.id).toBe(REQUEST_ID);
	});

	it('typed in, an empty id is refused by n8n before the workflow starts (the field is required)', async () => {
		const { error, requests } = await op.run({ parameters: params('') });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
	});

	it.each([
		['an empty id', '', /Invalid Request ID \(item 0\): is empty/],
		[
			'an id with a slash',
			'../people',
			/Invalid Request ID \(item 0\): contains .*; an ID uses only letters, digits/,
		],
	])('refuses %s and sends nothing', async (_name, requestId, message) => {
		const { error, requests } = await op.run({
			parameters: params('={{ $json.request }}'),
			items: [{ json: { request: requestId } }],
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});
});
