import type { IDataObject } from 'n8n-workflow';

import { description as requestBankAccountDescription } from '../../../../nodes/FacilitaPay/actions/marketplaceAccount/requestBankAccount.operation';
import { description as requestAuthorizationDescription } from '../../../../nodes/FacilitaPay/actions/marketplaceAccount/requestAuthorization.operation';
import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { connectionError, httpError } from '../../helpers/serviceAnswers';
import { skipRetryWaits } from '../../helpers/retryWaits';
import { SUBJECT_ID } from '../../../fixtures/subjects';

skipRetryWaits();

const REQUEST_ID = '5e0c1f4a-2b3d-4c6e-8f9a-0b1c2d3e4f5a';
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
	const params = (options: IDataObject = {}, subjectId = SUBJECT_ID) => ({
		resource: 'marketplaceAccount',
		operation: 'requestAuthorization',
		subjectId,
		options,
	});

	it('posts with no body when Subject Is Account Owner is not set', async () => {
		const { output, requests } = await runNode({ parameters: params(), replies: [authorization] });
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].url).toBe(
			`https://sandbox.test/api/v1/subject/${SUBJECT_ID}/account_request`,
		);
		expect(requests[0].body).toBeUndefined();
		expect(output[0].json).toEqual(authorization.data);
	});

	it.each([
		[true, true],
		[false, false],
		['true', true],
		['FALSE', false],
	])('sends is_subject_account_owner %p as the boolean %p', async (value, sent) => {
		const { requests } = await runNode({
			parameters: params({ isSubjectAccountOwner: value }),
			replies: [authorization],
		});
		expect(requests[0].body).toEqual({ is_subject_account_owner: sent });
	});

	it.each([
		[
			'a subject id that is not a UUID',
			params({}, '12345'),
			/Invalid Subject ID \(item 0\): is not an id/,
		],
		['an empty subject id', params({}, ''), /Invalid Subject ID \(item 0\): is empty/],
		[
			'an owner flag that is not yes or no',
			params({ isSubjectAccountOwner: 'maybe' }),
			/Invalid Subject Is Account Owner \(item 0\): is "maybe"; it must be true or false/,
		],
	])('refuses %s and sends nothing', async (_name, parameters, message) => {
		const { error, requests } = await runNodeExpectingError({ parameters });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});

	it('is sent once: a 503 is not repeated', async () => {
		const { requests } = await runNodeExpectingError({
			parameters: params(),
			replies: [httpError(503, 'busy')],
		});
		expect(requests).toHaveLength(1);
	});

	it('explains in a hint that Yes is allowed only for CPF or CNPJ subjects', () => {
		const options = requestAuthorizationDescription.find((p) => p.name === 'options');
		const flag = (options?.options as Array<{ name: string; hint?: string; default?: unknown }>)[0];
		expect(flag.name).toBe('isSubjectAccountOwner');
		expect(flag.default).toBe(false);
		expect(flag.hint).toMatch(/only for a subject with a CPF or a CNPJ/);
	});
});

describe('Marketplace Account > Request Bank Account', () => {
	const params = (options: IDataObject = {}, subjectId = SUBJECT_ID) => ({
		resource: 'marketplaceAccount',
		operation: 'requestBankAccount',
		subjectId,
		options,
	});

	it('posts the subject_id only when the owner flag is not set', async () => {
		const { output, requests } = await runNode({
			parameters: params({}, SUBJECT_ID.toUpperCase()),
			replies: [bankRequest],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].url).toBe('https://sandbox.test/api/v1/bank/accounts/request');
		expect(requests[0].body).toEqual({ subject_id: SUBJECT_ID });
		expect(output[0].json).toEqual(bankRequest.data);
	});

	it.each([
		[true, 'true'],
		[false, 'false'],
	])(
		'sends is_subject_account_owner %p as the text "%s", as the spec lists it',
		async (value, sent) => {
			const { requests } = await runNode({
				parameters: params({ isSubjectAccountOwner: value }),
				replies: [bankRequest],
			});
			expect(requests[0].body).toEqual({ subject_id: SUBJECT_ID, is_subject_account_owner: sent });
		},
	);

	it('refuses a subject id that is not a UUID and sends nothing', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: params({}, 'subject-1'),
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Subject ID \(item 0\): is not an id/);
		expect(error.description).toContain('Nothing was sent to FacilitaPay');
	});

	it('is sent once: a timeout is not repeated', async () => {
		const { requests, error } = await runNodeExpectingError({
			parameters: params(),
			replies: [connectionError('ETIMEDOUT')],
		});
		expect(requests).toHaveLength(1);
		expect(error.description).toMatch(/was not repeated/);
	});

	it('shows the service’s refusal when no approved authorisation exists', async () => {
		const { error } = await runNodeExpectingError({
			parameters: params(),
			replies: [
				httpError(400, { errors: { subject_id: ['has no approved account authorization'] } }),
			],
		});
		expect(error.message).toMatch(
			/rejected the request \(item 0\): subject_id: has no approved account authorization/,
		);
	});

	it('says that an approved authorisation must exist first', () => {
		const notice = requestBankAccountDescription.find((p) => p.type === 'notice');
		expect(notice?.displayName).toMatch(/An approved account authorisation must exist first/);
	});
});

describe('Marketplace Account > Get Bank Account Request', () => {
	const params = (requestId: string) => ({
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
		const { output, requests } = await runNode({
			parameters: params(` ${REQUEST_ID} `),
			replies: [complete],
		});
		expect(requests[0].method).toBe('GET');
		expect(requests[0].url).toBe(`https://sandbox.test/api/v1/bank/accounts/request/${REQUEST_ID}`);
		expect(output[0].json).toEqual(complete.data);
	});

	it('is retried after a 503 (a read)', async () => {
		const { requests } = await runNode({
			parameters: params(REQUEST_ID),
			replies: [httpError(503, 'busy'), bankRequest],
		});
		expect(requests).toHaveLength(2);
	});

	it.each([
		['an empty id', '', /Invalid Request ID \(item 0\): is empty/],
		[
			'an id with a slash',
			'../people',
			/Invalid Request ID \(item 0\): contains .*; an ID uses only letters, digits/,
		],
	])('refuses %s and sends nothing', async (_name, requestId, message) => {
		const { error, requests } = await runNodeExpectingError({ parameters: params(requestId) });
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
	});
});
