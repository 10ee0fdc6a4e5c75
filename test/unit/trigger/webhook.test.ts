import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { defaultRetryOptions } from '../../../nodes/FacilitaPay/transport';
import { httpError } from '../helpers/executeContext';
import { clearDuplicateMemory } from '../../../nodes/FacilitaPayTrigger/duplicates';
import { clearGuessMemory } from '../../../nodes/FacilitaPayTrigger/guessing';
import {
	ANSWER_WITHIN_MS,
	READS_PER_NOTIFICATION,
	accountOf,
	clearProcessLimiters,
	processLimiter,
} from '../../../nodes/FacilitaPayTrigger/reads';
import type { Replier } from './triggerContext';
import { BASE_URL, SECRET, credentials, receive, registeredStaticData } from './triggerContext';

/*
 * The webhook as n8n calls it: what it answers, what it starts, which requests leave, how long it
 * takes. The rules themselves are table-tested in decision.test.ts.
 */

const NOW = new Date('2025-06-02T10:30:00.000Z');

beforeEach(() => {
	jest.useFakeTimers({
		now: NOW,
		doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'],
	});
	jest.spyOn(defaultRetryOptions, 'wait').mockImplementation(async () => {});
	clearGuessMemory();
	clearDuplicateMemory();
	clearProcessLimiters();
});
afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

function notification(fields: IDataObject): IDataObject {
	return { notification: { secret: SECRET, ...fields } };
}

const paymentApproved = notification({
	type: 'payment_approved',
	transaction_id: 'tx-1',
	checkout_id: 'co-9',
});
const approvedTransaction = {
	id: 'tx-1',
	status: 'identified',
	value: '150.00',
	currency: 'BRL',
	checkout_id: 'co-9',
};

/** The item that came out, or a failure when no execution started. */
function item(responseData: { workflowData?: Array<Array<{ json: IDataObject }>> }): IDataObject {
	expect(responseData.workflowData).toHaveLength(1);
	expect(responseData.workflowData?.[0]).toHaveLength(1);
	return responseData.workflowData![0][0].json;
}

/** Answers GET /transactions/:id from a table (404 for the rest), after `delayMs` of fake time. */
function transactions(table: Record<string, IDataObject>, delayMs = 0): Replier {
	return async (request: IHttpRequestOptions) => {
		if (delayMs > 0) await sleep(delayMs);
		const id = String(request.url).split('/transactions/')[1];
		return table[id] ? { data: table[id] } : httpError(404, { error: 'not_found' });
	};
}

describe('webhook: a genuine notification', () => {
	it('reads what it names, answers 200 itself and starts the workflow with the event and the API object', async () => {
		const { responseData, response, requests } = await receive({
			bodyData: paymentApproved,
			replies: [{ data: approvedTransaction }],
		});
		expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
			`GET ${BASE_URL}/transactions/tx-1`,
		]);
		expect(item(responseData)).toEqual({
			type: 'payment_approved',
			transaction_id: 'tx-1',
			checkout_id: 'co-9',
			transaction: approvedTransaction,
			verified: true,
			verification: {
				summary: expect.any(String),
				objects: [
					{ object: 'transaction', id: 'tx-1', found: true, status: 'identified', confirms: true },
				],
			},
			receivedAt: NOW.toISOString(),
		});
		expect(JSON.stringify(responseData)).not.toContain(SECRET);
		expect(responseData.noWebhookResponse).toBe(true);
		expect(response).toMatchObject({ statusCode: 200, body: { message: 'Workflow was started' } });
	});

	it('with Verify With API off, starts unverified without a request; a JSON body left as raw bytes is read', async () => {
		const { responseData, requests } = await receive({
			parameters: { options: { verifyWithApi: false } },
			bodyData: {},
			rawBody: Buffer.from(JSON.stringify(paymentApproved)),
		});
		expect(item(responseData)).toMatchObject({ type: 'payment_approved', verified: false });
		expect(requests).toHaveLength(0);
	});

	it('an event the API proves false starts nothing, is answered 200 and logged', async () => {
		const { responseData, response, logger } = await receive({
			bodyData: paymentApproved,
			replies: [httpError(404, { error: 'not_found' })],
		});
		expect(responseData.workflowData).toBeUndefined();
		expect(response).toMatchObject({
			statusCode: 200,
			body: { message: 'Not started: FacilitaPay does not confirm this event' },
		});
		expect(logger.warn).toHaveBeenCalledWith(
			expect.stringMatching(/does not know transaction tx-1/),
		);
	});

	it('when FacilitaPay cannot be reached, answers 503 so it is sent again, and logs where to find it', async () => {
		const { responseData, response, logger } = await receive({
			bodyData: paymentApproved,
			replies: [httpError(503, ''), httpError(503, '')],
		});
		expect(responseData.workflowData).toBeUndefined();
		expect(response.statusCode).toBe(503);
		expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/Only Failed/));
	});

	it('the KYC status payload is verified by reading the subject, with no option', async () => {
		const data = {
			id: 'sub-1',
			status: 'approved',
			document_type: 'cpf',
			document_number: '39053344705',
		};
		const { responseData, requests } = await receive({
			bodyData: { data },
			replies: [{ data: { ...data, social_name: 'Ana' } }],
		});
		expect(requests[0].url).toBe(`${BASE_URL}/subject/people/sub-1`);
		expect(item(responseData)).toMatchObject({ type: 'kyc_status', data, verified: true });
	});
});

describe('webhook: forged or broken requests start nothing', () => {
	it.each<[string, IDataObject]>([
		['a wrong secret', notification({ type: 'payment_approved', secret: '0000' })],
		['a secret of another length', notification({ type: 'payment_approved', secret: '37180' })],
		['no secret', { notification: { type: 'payment_approved', transaction_id: 'tx-1' } }],
		['an empty secret', notification({ type: 'payment_approved', secret: '' })],
		['a numeric secret that is wrong', notification({ type: 'payment_approved', secret: 3719 })],
		[
			'the secret as an object',
			notification({ type: 'payment_approved', secret: { value: SECRET } }),
		],
		['a body without notification', { type: 'payment_approved', secret: SECRET }],
	])('%s: 401, no execution, no API call', async (_name, body) => {
		const { responseData, response, requests } = await receive({ bodyData: body });
		expect(response.statusCode).toBe(401);
		expect(responseData).toEqual({ noWebhookResponse: true });
		expect(requests).toHaveLength(0);
		expect(JSON.stringify(response.body)).not.toContain(SECRET);
	});

	it('refuses every notification when no secret is stored, and says in the log how to fix it', async () => {
		const { response, logger } = await receive({ bodyData: paymentApproved, staticData: {} });
		expect(response.statusCode).toBe(401);
		expect(logger.warn).toHaveBeenCalledWith(
			expect.stringMatching(/Deactivate and activate the workflow/),
		);
	});

	it.each<[string, unknown, Buffer | undefined]>([
		['a body that is not JSON', 'type=payment_approved&secret=3718', undefined],
		['raw bytes that are not JSON', {}, Buffer.from('<xml>no</xml>')],
		['an empty body', {}, undefined],
		['a JSON array', {}, Buffer.from('[1,2]')],
		['a notification that is not an object', { notification: 'payment_approved' }, undefined],
	])('%s: 400', async (_name, bodyData, rawBody) => {
		const { responseData, response } = await receive({ bodyData, rawBody });
		expect(response.statusCode).toBe(400);
		expect(responseData).toEqual({ noWebhookResponse: true });
	});

	it('checks the secret before the type: a forged body without type is 401, not 400', async () => {
		const { response } = await receive({ bodyData: { notification: { secret: '9999' } } });
		expect(response.statusCode).toBe(401);
	});

	it.each<[string, IDataObject, Buffer | undefined]>([
		[
			'a deeply nested KYC payload',
			{ data: { id: 's', references: [nested(100_000)] } },
			undefined,
		],
		[
			'a body with too many values',
			notification({
				type: 'subject_reproved',
				subject_id: 's',
				items: Array.from({ length: 6_000 }, (_, i) => `i${i}`),
			}),
			undefined,
		],
		['a body larger than 256 KiB', {}, Buffer.from(`{"x":"${'a'.repeat(300_000)}"}`)],
	])('%s: 413 without reading it all', async (_name, bodyData, rawBody) => {
		const { response, requests } = await receive({ bodyData, rawBody });
		expect(response.statusCode).toBe(413);
		expect(requests).toHaveLength(0);
	});
});

function nested(levels: number): IDataObject {
	let value: IDataObject = { id: 'x' };
	for (let i = 0; i < levels; i++) value = { nested: value };
	return value;
}

describe('webhook: the secret', () => {
	it('a secret sent as a JSON number is the same secret as its digits', async () => {
		const { responseData } = await receive({
			parameters: { options: { verifyWithApi: false } },
			bodyData: notification({
				type: 'identified',
				transaction_id: 'tx-1',
				secret: Number(SECRET),
			}),
		});
		expect(item(responseData).type).toBe('identified');
	});

	it('the previous secret is accepted for 24 hours after a new registration, then forgotten', async () => {
		const { hmacOf } = await import('./triggerContext');
		const staticData = registeredStaticData({
			secretHmac: hmacOf('5555'),
			previousSecretHmac: hmacOf(SECRET),
			previousSecretUntil: new Date(NOW.getTime() + 60_000).toISOString(),
		});
		const body = notification({ type: 'identified', transaction_id: 'tx-1' });
		const parameters = { options: { verifyWithApi: false } };
		expect(
			item((await receive({ parameters, staticData, bodyData: body })).responseData).type,
		).toBe('identified');
		jest.setSystemTime(NOW.getTime() + 61_000);
		expect((await receive({ parameters, staticData, bodyData: body })).response.statusCode).toBe(
			401,
		);
		expect(staticData).not.toHaveProperty('previousSecretHmac');
	});
});

describe('webhook: Include Headers', () => {
	it('adds the request headers without authorization, cookie or token headers', async () => {
		const { responseData } = await receive({
			parameters: { options: { includeHeaders: true, verifyWithApi: false } },
			bodyData: paymentApproved,
			headers: {
				'content-type': 'application/json',
				'x-request-id': 'req-7',
				authorization: 'Bearer leaked',
				cookie: 'session=abc',
				'x-api-key': 'k',
			},
		});
		expect(item(responseData).headers).toEqual({
			'content-type': 'application/json',
			'x-request-id': 'req-7',
		});
	});
});

describe('webhook: large events are read in parallel, bounded', () => {
	it.each([40, 200])(
		'a wire naming %i transactions: every one read, at most 8 at a time, answered well within 8 s',
		async (count) => {
			const ids = Array.from({ length: count }, (_, n) => `t${n}`);
			const table = Object.fromEntries(
				ids.map((id) => [id, { id, status: 'wired', value: '1.00' }]),
			);
			const pending = receive({
				bodyData: notification({ type: 'wire_created', wire_id: 'w-1', transaction_ids: ids }),
				replies: transactions(table, 50),
			});
			await jest.advanceTimersByTimeAsync(ANSWER_WITHIN_MS);
			const { responseData, response, http } = await pending;
			expect(http.requests).toHaveLength(count);
			expect(http.maxInFlight).toBe(READS_PER_NOTIFICATION);
			const started = item(responseData);
			expect(started.verified).toBe(true);
			expect((started.transactions as IDataObject[]).map((entry) => entry.id)).toEqual(ids);
			// 50 ms a read, 8 at a time.
			expect(response.answeredAt! - NOW.getTime()).toBe(Math.ceil(count / 8) * 50);
		},
	);

	it('a forged wire stops reading at the first transaction FacilitaPay does not know', async () => {
		const ids = Array.from({ length: 200 }, (_, n) => `forged${n}`);
		const { response, http } = await receive({
			bodyData: notification({ type: 'wire_created', wire_id: 'w-1', transaction_ids: ids }),
			replies: transactions({}),
		});
		expect(response.statusCode).toBe(200);
		expect(http.requests.length).toBeLessThanOrEqual(READS_PER_NOTIFICATION);
	});
});

describe('webhook: a hard time bound', () => {
	it('FacilitaPay hanging: answered 503 within 8 s, nothing started', async () => {
		const pending = receive({
			bodyData: paymentApproved,
			replies: async () => await new Promise(() => {}),
		});
		await jest.advanceTimersByTimeAsync(ANSWER_WITHIN_MS);
		const { response, responseData } = await pending;
		expect(response.statusCode).toBe(503);
		expect(response.answeredAt! - NOW.getTime()).toBeLessThanOrEqual(ANSWER_WITHIN_MS);
		expect(responseData.workflowData).toBeUndefined();
	});

	it('429 with Retry-After: 30 on every read: answered 503 within 8 s (the rate-limit waits obey the deadline)', async () => {
		jest.restoreAllMocks(); // real waiting, on the fake clock
		const pending = receive({
			bodyData: paymentApproved,
			replies: () => httpError(429, { error: 'too_many_requests' }, { 'retry-after': '30' }),
		});
		await jest.advanceTimersByTimeAsync(ANSWER_WITHIN_MS);
		const { response, requests } = await pending;
		expect(response.statusCode).toBe(503);
		expect(response.answeredAt! - NOW.getTime()).toBeLessThanOrEqual(ANSWER_WITHIN_MS);
		expect(requests.length).toBeLessThanOrEqual(3);
	});
});

describe('webhook: a sender that stopped waiting', () => {
	it('when the sender gave up while the API was read (n8n was busy), nothing starts: its redelivery will, once', async () => {
		const request = { socket: { destroyed: false } };
		const late = await receive({
			bodyData: paymentApproved,
			request,
			workflowId: 'wf-late',
			replies: () => {
				request.socket.destroyed = true;
				return { data: approvedTransaction };
			},
		});
		expect(late.responseData.workflowData).toBeUndefined();
		expect(late.logger.warn).toHaveBeenCalledWith(expect.stringMatching(/stopped waiting/));
		const redelivered = await receive({
			bodyData: paymentApproved,
			workflowId: 'wf-late',
			replies: [{ data: approvedTransaction }],
		});
		expect(item(redelivered.responseData).verified).toBe(true);
	});

	it('a request whose sender is already gone reads nothing', async () => {
		const { requests, responseData } = await receive({
			bodyData: paymentApproved,
			request: { socket: { destroyed: true } },
		});
		expect(requests).toHaveLength(0);
		expect(responseData.workflowData).toBeUndefined();
	});
});

describe('webhook: one 429-aware limiter for the whole process', () => {
	it("a 429 met by one notification's read pauses the reads of the next notification too", async () => {
		jest.restoreAllMocks();
		const limiter = processLimiter(accountOf(credentials as never));
		let calls = 0;
		const replies: Replier = () => {
			calls += 1;
			return calls === 1
				? httpError(429, { error: 'too_many_requests' }, { 'retry-after': '2' })
				: { data: approvedTransaction };
		};
		const first = receive({ bodyData: paymentApproved, replies });
		await jest.advanceTimersByTimeAsync(10);
		expect(limiter.pauseLeft()).toBeGreaterThan(1_900);
		const secondBody = notification({
			type: 'payment_approved',
			transaction_id: 'tx-1',
			checkout_id: 'co-9',
			n: 2,
		});
		const second = receive({
			bodyData: secondBody,
			replies: () => ({ data: approvedTransaction }),
		});
		await jest.advanceTimersByTimeAsync(1_000);
		expect(await Promise.race([second.then(() => 'answered'), Promise.resolve('waiting')])).toBe(
			'waiting',
		);
		await jest.advanceTimersByTimeAsync(2_000);
		const [a, b] = await Promise.all([first, second]);
		expect(item(a.responseData).verified).toBe(true);
		expect(item(b.responseData).verified).toBe(true);
		expect(b.response.answeredAt! - NOW.getTime()).toBeGreaterThanOrEqual(2_000);
	});
});

describe('webhook: duplicates', () => {
	const on = { options: { dropDuplicates: true } };

	it('an identical notification arriving while the first is checked starts nothing and is asked again later; once started, it is a duplicate', async () => {
		const staticData = registeredStaticData();
		let answerFirst: (value: unknown) => void = () => {};
		const first = receive({
			parameters: on,
			bodyData: paymentApproved,
			staticData,
			workflowId: 'wf-overlap',
			replies: async () => await new Promise((resolve) => (answerFirst = resolve)),
		});
		await jest.advanceTimersByTimeAsync(1);
		const overlapping = await receive({
			parameters: on,
			bodyData: paymentApproved,
			staticData: registeredStaticData(),
			workflowId: 'wf-overlap',
		});
		expect(overlapping.response.statusCode).toBe(503);
		expect(overlapping.requests).toHaveLength(0);
		expect(overlapping.responseData.workflowData).toBeUndefined();

		answerFirst({ data: approvedTransaction });
		expect(item((await first).responseData).verified).toBe(true);
		const later = await receive({
			parameters: on,
			bodyData: paymentApproved,
			staticData,
			workflowId: 'wf-overlap',
		});
		expect(later.response).toMatchObject({
			statusCode: 200,
			body: { message: 'Duplicate: already received' },
		});
		expect(later.requests).toHaveLength(0);
	});

	it('the same wire corrected twice (AC03, then AC14) is two events', async () => {
		const staticData = registeredStaticData();
		const correction = (code: string) =>
			notification({
				type: 'wire_waiting_correction',
				wire_id: 'w-1',
				transaction_ids: ['tx-1'],
				error_code: code,
				error_description: code,
				bank_account_owner_id: 'p-1',
				bank_account_id: 'ba-1',
			});
		const wired = { data: { id: 'tx-1', status: 'exchanged' } };
		for (const code of ['AC03', 'AC14']) {
			const { responseData } = await receive({
				parameters: on,
				bodyData: correction(code),
				staticData,
				replies: [wired],
			});
			expect(item(responseData).error_code).toBe(code);
		}
	});

	it('a notification not started (FacilitaPay down) is not remembered: its redelivery starts', async () => {
		const staticData = registeredStaticData();
		await receive({
			parameters: on,
			bodyData: paymentApproved,
			staticData,
			replies: [httpError(503, ''), httpError(503, '')],
		});
		const again = await receive({
			parameters: on,
			bodyData: paymentApproved,
			staticData,
			replies: [{ data: approvedTransaction }],
		});
		expect(item(again.responseData).verified).toBe(true);
	});

	it('during a burst the static data is written at most every 2 s (n8n saves it to its database after each call that changes it); the next call catches up', async () => {
		const staticData = registeredStaticData();
		const event = (n: number) => notification({ type: 'subject_approved', subject_id: `p-${n}` });
		const approved = (n: number) => [{ data: { id: `p-${n}`, status: 'approved' } }];
		await receive({
			parameters: on,
			bodyData: event(1),
			staticData,
			workflowId: 'wf-save',
			replies: approved(1),
		});
		expect(Object.keys(staticData.emittedEvents as IDataObject)).toHaveLength(1);
		jest.setSystemTime(NOW.getTime() + 500);
		await receive({
			parameters: on,
			bodyData: event(2),
			staticData,
			workflowId: 'wf-save',
			replies: approved(2),
		});
		expect(Object.keys(staticData.emittedEvents as IDataObject)).toHaveLength(1);
		// Dropped all the same: the process remembers it.
		const again = await receive({
			parameters: on,
			bodyData: event(2),
			staticData,
			workflowId: 'wf-save',
		});
		expect(again.response.body).toEqual({ message: 'Duplicate: already received' });
		jest.setSystemTime(NOW.getTime() + 2_500);
		await receive({
			bodyData: { notification: 'not an object' },
			staticData,
			workflowId: 'wf-save',
		});
		expect(Object.keys(staticData.emittedEvents as IDataObject)).toHaveLength(2);
	});

	it('memory stays bounded: at most 1000 events are remembered', async () => {
		const { rememberEmitted, DUPLICATES_KEPT } = await import(
			'../../../nodes/FacilitaPayTrigger/duplicates'
		);
		const staticData: IDataObject = {};
		for (let n = 0; n < 1500; n++) rememberEmitted(staticData, `key-${n}`, NOW.getTime() + n * 10);
		expect(Object.keys(staticData.emittedEvents as IDataObject)).toHaveLength(DUPLICATES_KEPT);
	});
});

describe('webhook: the guessing lock (20 wrong secrets in 10 minutes)', () => {
	const wrong = (n: number) =>
		notification({ type: 'identified', transaction_id: 'tx-1', secret: String(1000 + n) });

	async function guess(times: number, staticData: IDataObject, workflowId: string) {
		const statuses: number[] = [];
		for (let n = 0; n < times; n++) {
			statuses.push(
				(await receive({ bodyData: wrong(n), staticData, workflowId })).response.statusCode!,
			);
		}
		return statuses;
	}

	it('19 wrong secrets get 401, the 20th starts the lock (503) and is logged once', async () => {
		const staticData = registeredStaticData();
		const statuses = await guess(19, staticData, 'wf-lock');
		expect(statuses).toEqual(Array(19).fill(401));
		const { response, logger } = await receive({
			bodyData: wrong(99),
			staticData,
			workflowId: 'wf-lock',
		});
		expect(response.statusCode).toBe(503);
		expect(logger.warn).toHaveBeenCalledTimes(1);
		const after = await receive({ bodyData: wrong(100), staticData, workflowId: 'wf-lock' });
		expect(after.logger.warn).not.toHaveBeenCalled();
	});

	it('while locked, a right and a wrong secret get the same status and body for every kind of event, with no API call', async () => {
		const staticData = registeredStaticData();
		await guess(20, staticData, 'wf-oracle');
		const wire = {
			type: 'wire_created',
			wire_id: 'w',
			transaction_ids: Array.from({ length: 30 }, (_, n) => `t${n}`),
		};
		const bodies = [
			wire,
			{ type: 'payment_approved', transaction_id: 'tx-1' },
			{ type: 'non_identified_bank_transaction', bank_transaction: { id: 'b' } },
			{ type: 'subject_approved', subject_id: 'c-1' },
		];
		for (const fields of bodies) {
			const answers = [];
			for (const secret of [SECRET, '9999']) {
				const { response, requests, responseData } = await receive({
					bodyData: notification({ ...fields, secret }),
					staticData,
					workflowId: 'wf-oracle',
					replies: () => ({ data: approvedTransaction }),
				});
				expect(requests).toHaveLength(0);
				expect(responseData.workflowData).toBeUndefined();
				answers.push({ status: response.statusCode, body: response.body });
			}
			expect(answers[0]).toEqual(answers[1]);
			expect(answers[0]).toEqual({
				status: 503,
				body: { message: 'Not accepted now; send the notification again later' },
			});
		}
	});

	it('the lock ends when the window passes, and survives a restart through the static data', async () => {
		const staticData = registeredStaticData();
		await guess(20, staticData, 'wf-end');
		clearGuessMemory();
		const body = notification({
			type: 'non_identified_bank_transaction',
			bank_transaction: { id: 'b' },
		});
		expect(
			(await receive({ bodyData: body, staticData, workflowId: 'wf-end' })).response.statusCode,
		).toBe(503);
		jest.setSystemTime(NOW.getTime() + 10 * 60 * 1000 + 1);
		expect(
			item((await receive({ bodyData: body, staticData, workflowId: 'wf-end' })).responseData)
				.verified,
		).toBe(false);
	});

	it('parallel requests that each read the static data before any was saved still count (process memory)', async () => {
		const pristine = registeredStaticData();
		for (let n = 0; n < 20; n++) {
			await receive({ bodyData: wrong(n), staticData: { ...pristine }, workflowId: 'wf-parallel' });
		}
		const { response } = await receive({
			bodyData: paymentApproved,
			staticData: { ...pristine },
			workflowId: 'wf-parallel',
		});
		expect(response.statusCode).toBe(503);
	});
});
