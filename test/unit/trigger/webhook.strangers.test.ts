import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { ANSWER_WITHIN_MS } from '../../../nodes/FacilitaPayTrigger/reads';
import { httpError } from '../helpers/serviceAnswers';
import { SECRET, receive, registeredStaticData } from './triggerContext';
import { NOW } from './webhookClock';
import {
	approvedTransaction,
	item,
	kycStatusData,
	notification,
	paymentApproved,
	records,
} from './webhookEvents';

// The trigger's webhook() and strangers: no lock anyone can hold, FacilitaPay's notification
// records for secrets the trigger does not hold, unsigned payloads on their own share of reads.

const isRecords = (request: IHttpRequestOptions) => String(request.url).includes('/notifications');

describe('webhook: no lock a stranger can hold', () => {
	it('30 wrong secrets, then a true event: it starts at its first delivery', async () => {
		const staticData = registeredStaticData();
		for (let n = 0; n < 30; n++) {
			const { response, requests } = await receive({
				bodyData: notification({
					type: 'identified',
					transaction_id: 'tx-1',
					secret: `${1000 + n}`,
				}),
				staticData,
				workflowId: 'wf-guess',
				replies: records(),
			});
			expect(response).toMatchObject({ statusCode: 200, body: { message: 'Received' } });
			expect(requests.every(isRecords)).toBe(true);
		}
		const { responseData } = await receive({
			bodyData: paymentApproved,
			staticData,
			workflowId: 'wf-guess',
			replies: [{ data: approvedTransaction }],
		});
		expect(item(responseData).verified).toBe(true);
	});

	it('200 guesses at the secret get one status and one body, the right one included', async () => {
		const answers = new Set<string>();
		for (let n = 0; n < 200; n++) {
			const secret = n === 137 ? SECRET : String(n).padStart(4, '0');
			const { response } = await receive({
				bodyData: notification({ type: 'identified', transaction_id: 'tx-unknown', secret }),
				replies: records([], () => httpError(404, { error: 'not_found' })),
			});
			answers.add(JSON.stringify([response.statusCode, response.body]));
		}
		expect([...answers]).toEqual([JSON.stringify([200, { message: 'Received' }])]);
	});

	it("a stranger's copy of a true event under a wrong secret, still looked up, does not hold the true one back", async () => {
		const staticData = registeredStaticData();
		let answerRecords: (value: unknown) => void = () => {};
		const recordsRead = new Promise((resolve) => (answerRecords = resolve));
		const forged = receive({
			parameters: { options: { dropDuplicates: true } },
			bodyData: {
				notification: { ...(paymentApproved.notification as IDataObject), secret: '0000' },
			},
			staticData,
			workflowId: 'wf-copy',
			replies: async () => {
				await recordsRead;
				return { data: [] };
			},
		});
		await jest.advanceTimersByTimeAsync(1);
		const genuine = await receive({
			parameters: { options: { dropDuplicates: true } },
			bodyData: paymentApproved,
			staticData,
			workflowId: 'wf-copy',
			replies: [{ data: approvedTransaction }],
		});
		expect(genuine.response.statusCode).toBe(200);
		expect(item(genuine.responseData).verified).toBe(true);
		answerRecords(undefined);
		const copy = await forged;
		expect(copy.response).toMatchObject({ statusCode: 200, body: { message: 'Received' } });
		expect(copy.responseData.workflowData).toBeUndefined();
	});

	it('the right secret is answered no sooner than the recent answers to wrong ones; with no guesses, at once', async () => {
		// Two lists (the newest records, the newest failed ones): 900 ms in all.
		const slowRecords = async () => {
			await sleep(450);
			return { data: [] };
		};
		const alone = await receive({
			bodyData: notification({ type: 'identified', transaction_id: 'tx-none' }),
			workflowId: 'wf-pace',
			replies: () => httpError(404, { error: 'not_found' }),
		});
		expect(alone.response.answeredAt! - NOW.getTime()).toBe(0);

		const start = Date.now();
		const guess = receive({
			bodyData: notification({ type: 'identified', transaction_id: 'tx-none', secret: '0000' }),
			workflowId: 'wf-pace',
			replies: slowRecords,
		});
		await jest.advanceTimersByTimeAsync(900);
		const wrong = await guess;
		expect(wrong.response.answeredAt! - start).toBe(900);

		const begun = Date.now();
		const rightPending = receive({
			bodyData: notification({ type: 'identified', transaction_id: 'tx-none' }),
			workflowId: 'wf-pace',
			replies: () => httpError(404, { error: 'not_found' }),
		});
		await jest.advanceTimersByTimeAsync(1_000);
		const right = await rightPending;
		expect(right.response).toMatchObject({ statusCode: 200, body: { message: 'Received' } });
		expect(right.response.answeredAt! - begun).toBe(900);
	});

	it('forgeries arriving together share one lookup of the records at a time', async () => {
		const pending = Array.from({ length: 20 }, async (_, n) =>
			receive({
				bodyData: notification({ type: 'identified', transaction_id: `tx-${n}`, secret: '0000' }),
				replies: records(),
			}),
		);
		const results = await Promise.all(pending);
		const lookups = results.flatMap((result) => result.requests).filter(isRecords);
		// Two lists (newest, newest failed) per lookup: the first lookup and the one queued behind it.
		expect(lookups.length).toBeLessThanOrEqual(4);
		expect(results.every((result) => result.response.statusCode === 200)).toBe(true);
	});

	it('records that cannot be read: 503 (sent again), logged, and the next true event starts', async () => {
		const staticData = registeredStaticData();
		const failing = await receive({
			bodyData: notification({ type: 'identified', transaction_id: 'tx-1', secret: '0000' }),
			staticData,
			replies: () => httpError(503, ''),
		});
		expect(failing.response.statusCode).toBe(503);
		expect(failing.logger.warn).toHaveBeenCalledWith(expect.stringMatching(/records/));
		const { responseData } = await receive({
			bodyData: paymentApproved,
			staticData,
			replies: [{ data: approvedTransaction }],
		});
		expect(item(responseData).verified).toBe(true);
	});
});

describe("webhook: FacilitaPay's notification records settle a secret the trigger does not hold", () => {
	const event = { type: 'identified', transaction_id: 'tx-1' };
	const reads = (request: IHttpRequestOptions) =>
		String(request.url).endsWith('/transactions/tx-1') ? { data: approvedTransaction } : undefined;

	it.each<[string, IDataObject, boolean]>([
		[
			'a record with the payload and its secret: started',
			{ notification: { ...event, secret: '5555' } },
			true,
		],
		[
			'a record with the payload, no secret (the live service may not carry it): started',
			{ notification: event },
			true,
		],
		[
			'a record with the payload under another secret: not started',
			{ notification: { ...event, secret: '6666' } },
			false,
		],
		[
			'a record of another payload: not started',
			{ notification: { ...event, transaction_id: 'tx-2' } },
			false,
		],
	])('%s', async (_name, record, started) => {
		const { responseData, response } = await receive({
			bodyData: notification({ ...event, secret: '5555' }),
			replies: records([{ id: 'r1', url: 'u', ...record }], reads),
		});
		expect(response.statusCode).toBe(200);
		if (started) expect(item(responseData).verified).toBe(true);
		else expect(responseData.workflowData).toBeUndefined();
	});
});

describe('webhook: how far back the records are read', () => {
	const event = { type: 'identified', transaction_id: 'tx-1' };
	/** `count` records a second apart on FacilitaPay's clock (no zone, as it writes them), newest first. */
	const busy = (count: number, listed: number) =>
		Array.from({ length: count }, (_, n) => ({
			id: `r${n}`,
			url: 'u',
			inserted_at: new Date(Date.parse('2025-06-02T07:30:00Z') - n * 1000)
				.toISOString()
				.replace('Z', ''),
			notification:
				n === listed
					? { ...event, secret: '5555' }
					: { type: 'identified', transaction_id: `x${n}` },
		}));
	/** Answers GET /notifications from `list`, paged by last_id as the service does. */
	const paged = (list: IDataObject[]) => (request: IHttpRequestOptions) => {
		if (!isRecords(request)) return { data: approvedTransaction };
		const qs = request.qs as IDataObject;
		const rows = qs.failed === 'true' ? [] : list;
		const start = qs.last_id ? rows.findIndex((row) => row.id === qs.last_id) + 1 : 0;
		return { data: rows.slice(start, start + Number(qs.per_page)) };
	};

	it('a notification on the second page of the newest records (within 10 minutes of the newest) is found', async () => {
		const { responseData, requests } = await receive({
			bodyData: notification({ ...event, secret: '5555' }),
			replies: paged(busy(250, 150)),
		});
		expect(item(responseData).verified).toBe(true);
		expect(
			requests.filter(isRecords).map((request) => (request.qs as IDataObject).last_id),
		).toEqual([undefined, 'r99', 'r199', undefined]);
	});

	it('more than 500 records within 10 minutes: not read far enough, sent again (503), never answered as false', async () => {
		const { response, responseData } = await receive({
			bodyData: notification({ ...event, secret: '5555' }),
			replies: paged(busy(600, 550)),
		});
		expect(response.statusCode).toBe(503);
		expect(responseData.workflowData).toBeUndefined();
	});

	it('records older than 10 minutes before the newest end the reading: unlisted', async () => {
		const old = busy(250, 249).map((row, n) =>
			n >= 100 ? { ...row, inserted_at: '2025-06-01T07:30:00' } : row,
		);
		const { response, requests } = await receive({
			bodyData: notification({ ...event, secret: '5555' }),
			replies: paged(old),
		});
		expect(response).toMatchObject({ statusCode: 200, body: { message: 'Received' } });
		expect(requests.filter(isRecords)).toHaveLength(3);
	});
});

describe('webhook: unsigned payloads and the strangers share of reads', () => {
	it('160 unsigned KYC payloads waiting on the API do not hold back a signed event', async () => {
		const hanging = new Promise(() => {});
		const replier = async (request: IHttpRequestOptions) => {
			if (String(request.url).includes('/subject/people/')) return await hanging;
			return { data: approvedTransaction };
		};
		const unsigned = Array.from({ length: 160 }, async (_, n) =>
			receive({ bodyData: { data: { ...kycStatusData, id: `s-${n}` } }, replies: replier }),
		);
		await jest.advanceTimersByTimeAsync(1);
		const signed = await receive({ bodyData: paymentApproved, replies: replier });
		expect(item(signed.responseData).verified).toBe(true);
		expect(signed.response.answeredAt! - NOW.getTime()).toBeLessThan(ANSWER_WITHIN_MS);
		await jest.advanceTimersByTimeAsync(ANSWER_WITHIN_MS);
		const answered = await Promise.all(unsigned);
		expect(answered.every((result) => result.response.statusCode === 503)).toBe(true);
	});

	it("an unsigned payload naming someone's subject with another document number: nothing started, no number in n8n's log", async () => {
		const { responseData, logger } = await receive({
			bodyData: { data: { ...kycStatusData, document_number: '11144477735' } },
			replies: [{ data: { ...kycStatusData, updated_at: '2025-06-01T00:00:00' } }],
		});
		expect(responseData.workflowData).toBeUndefined();
		const logged = JSON.stringify(
			[logger.debug, logger.info, logger.warn, logger.error].map(
				(fn) => (fn as jest.Mock).mock.calls,
			),
		);
		expect(logged).not.toMatch(/11144477735|39053344705/);
	});
});

describe('webhook: duplicates and the time bound', () => {
	it('two identical notifications at the same moment with Drop Duplicates: one execution', async () => {
		const staticData = registeredStaticData();
		const both = await Promise.all(
			[0, 1].map(async () =>
				receive({
					parameters: { options: { dropDuplicates: true, verifyWithApi: false } },
					bodyData: paymentApproved,
					staticData,
					workflowId: 'wf-twins',
				}),
			),
		);
		expect(both.filter((result) => result.responseData.workflowData).length).toBe(1);
	});

	it('the 8 s bound starts before the credentials are read', async () => {
		const pending = receive({
			bodyData: paymentApproved,
			credentialsDelayMs: 5_000,
			replies: async () => await new Promise(() => {}),
		});
		await jest.advanceTimersByTimeAsync(ANSWER_WITHIN_MS + 5_000);
		const { response } = await pending;
		expect(response.statusCode).toBe(503);
		expect(response.answeredAt! - NOW.getTime()).toBeLessThanOrEqual(ANSWER_WITHIN_MS);
	});
});
