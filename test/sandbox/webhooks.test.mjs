import { startSandbox, startReceiver, createPerson, dynamicPix } from './helpers.mjs';
import { defaultDelivery, RECORD_URL_FORMS, writtenUrl } from '../../sandbox/webhookSettings.mjs';

let t;
let rx;
beforeAll(async () => {
	t = await startSandbox();
	rx = await startReceiver();
});
afterAll(async () => {
	await t.close();
	await rx.close();
});
beforeEach(async () => {
	await t.control('POST', '/reset');
	rx.received.length = 0;
	rx.respondWith(200);
});

const enable = async (url = rx.url) =>
	(await t.api('POST', '/enable_webhooks', { url })).json.data.secret;
const wait = () => t.control('POST', '/deliveries/wait');
const list = async (query = '') => (await t.api('GET', `/notifications${query}`)).json.data;

test('enable returns a new short secret each time; the url is required', async () => {
	const a = await enable();
	const b = await enable();
	expect(a).toMatch(/^\d{4}$/);
	expect(b).toMatch(/^\d{4}$/);
	expect(b).not.toBe(a);
	const r = await t.api('POST', '/enable_webhooks', {});
	expect(r.status).toBe(422);
	expect(r.json).toEqual({ errors: { url: ["can't be blank"] } });
});

test('an event is POSTed as {"notification": {type, secret, ...fields}} and recorded', async () => {
	const secret = await enable();
	const s = await createPerson(t);
	const tx = (await t.api('POST', '/transactions', dynamicPix(s.id))).json.data;
	await t.control('POST', `/transactions/${tx.id}/pay`, {});
	await wait();
	expect(rx.received).toEqual([
		{ notification: { type: 'identified', secret, transaction_id: tx.id } },
	]);
	const [rec] = await list();
	expect(rec).toEqual(
		expect.objectContaining({
			id: expect.stringMatching(/^[0-9a-f-]{36}$/),
			url: rx.url,
			sent_at: '2025-03-10T12:00:00Z',
			failed_at: null,
			inserted_at: '2025-03-10T12:00:00Z',
			// the record keeps the payload as delivered, secret included, as the service's records do
			notification: { type: 'identified', secret, transaction_id: tx.id },
		}),
	);
});

test('enabling again replaces the url; the new secret travels', async () => {
	const other = await startReceiver();
	try {
		await enable();
		const secret = await enable(other.url);
		await t.control('POST', '/events', { type: 'subject_approved', subject_id: 'abc' });
		expect(rx.received).toEqual([]);
		expect(other.received).toEqual([
			{ notification: { type: 'subject_approved', secret, subject_id: 'abc' } },
		]);
	} finally {
		await other.close();
	}
});

test('a failing receiver gets 5 more attempts at 1, 5, 15, 60 and 360 minutes of the sandbox clock, then the record stays failed', async () => {
	await enable();
	rx.respondWith(500);
	await t.control('POST', '/events', { type: 'payment_expired', transaction_id: 't1' });
	expect(rx.received).toHaveLength(1);
	let [rec] = await list();
	expect(rec).toMatchObject({
		failed_at: '2025-03-10T12:00:00Z',
		attempts: 1,
		next_attempt_at: '2025-03-10T12:01:00Z',
	});
	await t.advance(59);
	expect(rx.received).toHaveLength(1);
	await t.advance(1);
	expect(rx.received).toHaveLength(2);
	await t.advance(5 * 60);
	expect(rx.received).toHaveLength(3);
	await t.advance((15 + 60 + 360) * 60);
	expect(rx.received).toHaveLength(6);
	await t.advance(30 * 86400);
	expect(rx.received).toHaveLength(6);
	[rec] = await list('?failed=true');
	expect(rec).toMatchObject({
		failed_at: '2025-03-10T19:21:00Z',
		attempts: 6,
		next_attempt_at: null,
		last_error: 'HTTP 500',
	});
	expect(await list('?failed=false')).toEqual([]);
	const marked = await t.api('PUT', `/notifications/${rec.id}`);
	expect(marked.json.data).toMatchObject({ id: rec.id, failed_at: null });
	expect(await list('?failed=true')).toEqual([]);
});

test('a receiver that recovers stops the redelivery; the record is successful', async () => {
	await enable();
	rx.respondWith((n) => (n < 3 ? 503 : 204));
	await t.control('POST', '/events', { type: 'identified', transaction_id: 't1' });
	await t.advance(6 * 60);
	expect(rx.received).toHaveLength(3);
	await t.advance(86400);
	expect(rx.received).toHaveLength(3);
	expect((await list())[0]).toMatchObject({
		failed_at: null,
		attempts: 3,
		sent_at: '2025-03-10T12:06:00Z',
	});
});

test('an unreachable url is retried like a failed answer', async () => {
	const dead = await startReceiver();
	await dead.close();
	await enable(dead.url);
	await t.control('POST', '/events', { type: 'identified', transaction_id: 't1' });
	const [rec] = await list();
	expect(rec.failed_at).not.toBeNull();
	expect(rec.last_error).toBe('ECONNREFUSED');
	expect(rec.next_attempt_at).toBe('2025-03-10T12:01:00Z');
});

test('marking a failed notification successful stops its redelivery', async () => {
	await enable();
	rx.respondWith(500);
	await t.control('POST', '/events', { type: 'identified', transaction_id: 't1' });
	const [rec] = await list();
	await t.api('PUT', `/notifications/${rec.id}`);
	await t.advance(86400);
	expect(rx.received).toHaveLength(1);
	expect((await t.api('PUT', '/notifications/00000000-0000-4000-8000-000000000000')).status).toBe(
		404,
	);
});

test('disable answers "ok" and stops every delivery, including pending retries', async () => {
	await enable();
	rx.respondWith(500);
	await t.control('POST', '/events', { type: 'identified', transaction_id: 't1' });
	const r = await t.api('GET', '/disable_webhooks');
	expect(r.json).toEqual({ data: 'ok' });
	await t.control('POST', '/events', { type: 'identified', transaction_id: 't2' });
	await t.advance(86400);
	expect(rx.received).toHaveLength(1);
	expect(await list()).toHaveLength(1);
	// the event still shows in the sandbox's own event log
	expect((await t.events()).map((e) => e.transaction_id)).toEqual(['t1', 't2']);
});

test('notifications page with last_id and per_page, ascending by default or desc', async () => {
	await enable();
	for (let i = 1; i <= 5; i++)
		await t.control('POST', '/events', { type: 'identified', transaction_id: `t${i}` });
	const ids = (l) => l.map((n) => n.notification.transaction_id);
	const p1 = await list('?per_page=2');
	expect(ids(p1)).toEqual(['t1', 't2']);
	expect(ids(await list(`?per_page=2&last_id=${p1[1].id}`))).toEqual(['t3', 't4']);
	const d1 = await list('?per_page=2&order_by=desc');
	expect(ids(d1)).toEqual(['t5', 't4']);
	expect(ids(await list(`?per_page=10&order_by=desc&last_id=${d1[1].id}`))).toEqual([
		't3',
		't2',
		't1',
	]);
	expect((await t.api('GET', '/notifications?per_page=abc')).json).toEqual({
		errors: { per_page: ['must be a positive integer'] },
	});
	expect((await t.api('GET', '/notifications?failed=maybe')).status).toBe(422);
});

test('a raw event can be sent with POST /_sandbox/events', async () => {
	const secret = await enable();
	const r = await t.control('POST', '/events', {
		type: 'invoice_paid',
		invoice: { id: 'i1', status: 'paid' },
	});
	expect(r.json.data.notification.notification).toEqual({
		type: 'invoice_paid',
		secret,
		invoice: { id: 'i1', status: 'paid' },
	});
	expect(rx.received[0]).toEqual({
		notification: { type: 'invoice_paid', secret, invoice: { id: 'i1', status: 'paid' } },
	});
	expect((await t.control('POST', '/events', {})).status).toBe(422);
});

test('events reach the receiver in the order they happened', async () => {
	const secret = await enable();
	const s = await createPerson(t);
	const c = (
		await t.api('POST', '/transactions/checkout', {
			subject_id: s.id,
			value: '10.00',
			currency: 'BRL',
			exchange_currency: 'BRL',
			to_bank_account_id: '0b5e7c2a-1f3d-4a8e-9c61-000000000001',
		})
	).json.data;
	await t.control('POST', `/transactions/${c.id}/pay`, { success: false });
	await t.control('POST', `/transactions/${c.id}/pay`, { success: true });
	await wait();
	expect(rx.received.map((r) => r.notification.type)).toEqual([
		'payment_failed',
		'payment_approved',
		'identified',
	]);
	expect(rx.received.every((r) => r.notification.secret === secret)).toBe(true);
});

describe('delivery as the spec leaves it open, played on demand', () => {
	afterEach(async () => {
		await t.control('POST', '/webhooks/delivery', defaultDelivery(10000));
	});

	test('the settings: one at a time, 10 s timeout, redelivery on the virtual clock, no extra fields', async () => {
		expect((await t.control('GET', '/webhooks/delivery')).json.data).toMatchObject({
			concurrent: false,
			timeout_ms: 10000,
			retry_seconds: null,
			extra_fields: {},
			stats: { records: 0, attempts: 0 },
		});
		const refused = await t.control('POST', '/webhooks/delivery', {
			concurrent: 'yes',
			timeout_ms: -1,
			retry_seconds: 'soon',
		});
		expect(refused.status).toBe(422);
		expect(Object.keys(refused.json.errors).sort()).toEqual([
			'concurrent',
			'retry_seconds',
			'timeout_ms',
		]);
	});

	/**
	 * `count` PIX payments delivered to a receiver that holds each answer `holdMs`, with the
	 * `concurrent` delivery switch: how many were in flight at once, and how many were answered 200.
	 * @param {{concurrent: boolean | number, count: number, holdMs: number}} o
	 */
	async function paymentsToSlowReceiver({ concurrent, count, holdMs }) {
		await t.control('POST', '/webhooks/delivery', { concurrent });
		let open = 0;
		let peak = 0;
		const slow = await startSlowReceiver(async () => {
			open += 1;
			peak = Math.max(peak, open);
			await new Promise((resolve) => setTimeout(resolve, holdMs));
			open -= 1;
			return 200;
		});
		try {
			await enable(slow.url);
			const r = await t.control('POST', '/pix/receive_many', {
				document_number: (await createPerson(t)).document_number,
				value: '1.00',
				count,
			});
			expect(r.status).toBe(200);
			await wait();
			const answered = (await list()).filter((rec) => rec.last_response_status === 200).length;
			return { peak, answered };
		} finally {
			await slow.close();
		}
	}

	test('concurrent first deliveries: a slow receiver gets them all at once, not one after the other', async () => {
		await enable();
		const { peak } = await paymentsToSlowReceiver({ concurrent: true, count: 10, holdMs: 100 });
		expect(peak).toBeGreaterThanOrEqual(10);
	});

	test('a receiver slower than the timeout counts as failed (timeout) and is sent again after the real seconds given', async () => {
		await t.control('POST', '/webhooks/delivery', {
			timeout_ms: 200,
			retry_seconds: [0.05, 0.1, 0.2, 0.4, 0.8],
		});
		let calls = 0;
		const slow = await startSlowReceiver(async () => {
			calls += 1;
			if (calls <= 2) await new Promise((resolve) => setTimeout(resolve, 400));
			return 200;
		});
		try {
			await enable(slow.url);
			await t.control('POST', '/events', { type: 'identified', transaction_id: 't1' });
			await t.control('POST', '/deliveries/wait', { redeliveries: true });
			const [rec] = await list();
			expect(rec).toMatchObject({ attempts: 3, failed_at: null, last_response_status: 200 });
			expect((await t.control('GET', '/webhooks/delivery')).json.data.stats).toMatchObject({
				records: 1,
				delivered: 1,
				failing: 0,
				attempts: 3,
				by_status: { timeout: 2, 200: 1 },
				waiting_redelivery: 0,
			});
		} finally {
			await slow.close();
		}
	});

	test('after the 5 real-time redeliveries the record stays failed', async () => {
		await enable();
		rx.respondWith(503);
		await t.control('POST', '/webhooks/delivery', {
			retry_seconds: [0.01, 0.02, 0.04, 0.08, 0.16],
		});
		await t.control('POST', '/events', { type: 'identified', transaction_id: 't1' });
		await t.control('POST', '/deliveries/wait', { redeliveries: true });
		expect(rx.received).toHaveLength(6);
		expect((await list('?failed=true'))[0]).toMatchObject({ attempts: 6, next_attempt_at: null });
	});

	test('the records carry the secret each notification was delivered with, or (records_secret: false) none', async () => {
		const first = await enable();
		await t.control('POST', '/events', { type: 'identified', transaction_id: 't1' });
		const second = await enable();
		await t.control('POST', '/events', { type: 'identified', transaction_id: 't1' });
		expect((await list('?order_by=desc')).map((rec) => rec.notification.secret)).toEqual([
			second,
			first,
		]);
		await t.control('POST', '/webhooks/delivery', { records_secret: false });
		const [newest] = await list('?order_by=desc');
		expect(newest.notification).toEqual({ type: 'identified', transaction_id: 't1' });
		expect((await t.control('POST', '/webhooks/delivery', { records_secret: 'no' })).status).toBe(
			422,
		);
	});

	test('concurrent: 3 keeps at most 3 first deliveries in flight at once', async () => {
		const { peak, answered } = await paymentsToSlowReceiver({
			concurrent: 3,
			count: 9,
			holdMs: 50,
		});
		expect(answered).toBe(9);
		expect(peak).toBe(3);
	});

	test('per_page_max: a page holds at most that many records whatever per_page asks; last_id reads on', async () => {
		await enable();
		for (const id of ['t1', 't2', 't3', 't4', 't5'])
			await t.control('POST', '/events', { type: 'identified', transaction_id: id });
		await t.control('POST', '/webhooks/delivery', { per_page_max: 2 });
		const first = await list('?per_page=100');
		expect(first.map((rec) => rec.notification.transaction_id)).toEqual(['t1', 't2']);
		const next = await list(`?per_page=100&last_id=${first[1].id}`);
		expect(next.map((rec) => rec.notification.transaction_id)).toEqual(['t3', 't4']);
		const last = await list(`?per_page=100&last_id=${next[1].id}`);
		expect(last.map((rec) => rec.notification.transaction_id)).toEqual(['t5']);
		expect(await list(`?per_page=100&last_id=${last[0].id}`)).toEqual([]);
		const refused = await t.control('POST', '/webhooks/delivery', { per_page_max: 0 });
		expect(refused.status).toBe(422);
		expect(Object.keys(refused.json.errors)).toEqual(['per_page_max']);
	});

	test('record_delay_seconds: the delivery goes out before its record is listed, then it is listed last', async () => {
		await enable();
		await t.control('POST', '/events', { type: 'identified', transaction_id: 'early' });
		await t.control('POST', '/webhooks/delivery', { record_delay_seconds: 0.2 });
		await t.control('POST', '/events', { type: 'identified', transaction_id: 'late' });
		expect(rx.received.map((body) => body.notification.transaction_id)).toEqual(['early', 'late']);
		expect((await list()).map((rec) => rec.notification.transaction_id)).toEqual(['early']);
		await t.control('POST', '/deliveries/wait', { redeliveries: true });
		expect((await list()).map((rec) => rec.notification.transaction_id)).toEqual(['early', 'late']);
		const refused = await t.control('POST', '/webhooks/delivery', { record_delay_seconds: -1 });
		expect(refused.status).toBe(422);
	});

	test('record_url_form: the log writes the url in another form; the delivery still goes to the registered URL', async () => {
		const registered = `${rx.url}/ab-12`; // the receiver's path is /hook
		await enable(registered);
		const written = {};
		for (const form of RECORD_URL_FORMS) {
			await t.control('POST', '/webhooks/delivery', { record_url_form: form });
			await t.control('POST', '/events', { type: 'identified', transaction_id: form });
			await wait();
			written[form] = (await list()).at(-1).url;
		}
		const { origin } = new URL(registered);
		expect(written).toEqual({
			as_registered: registered,
			host_case: registered.replace(origin, origin.toUpperCase()),
			default_port: registered, // the receiver has its own port: nothing to write or drop
			trailing_slash: `${registered}/`,
			percent_encoded: `${origin}/%68%6f%6f%6b/%61%62%2d%31%32`,
			all: `${origin.toUpperCase()}/%68%6f%6f%6b/%61%62%2d%31%32/`,
			other_path: `${origin}/proxy/hook/ab-12`,
		});
		expect(rx.received).toHaveLength(RECORD_URL_FORMS.length);
		expect((await list()).every((rec) => !('_to' in rec))).toBe(true);
		const refused = await t.control('POST', '/webhooks/delivery', { record_url_form: 'lower' });
		expect(refused.status).toBe(422);
	});

	test('record_url_form default_port: written when the URL has none, dropped when it has it', () => {
		expect(writtenUrl('https://n8n.example.com/webhook/x', 'default_port')).toBe(
			'https://n8n.example.com:443/webhook/x',
		);
		expect(writtenUrl('https://n8n.example.com:443/webhook/x', 'default_port')).toBe(
			'https://n8n.example.com/webhook/x',
		);
		expect(writtenUrl('http://n8n.local/webhook/x', 'default_port')).toBe(
			'http://n8n.local:80/webhook/x',
		);
		expect(writtenUrl('https://n8n.example.com:8443/webhook/x', 'default_port')).toBe(
			'https://n8n.example.com:8443/webhook/x',
		);
	});

	test('kyc_payload: the KYC status payload ({"data": subject}, no secret) beside subject_approved, listed or not', async () => {
		await enable();
		const subject = await createPerson(t);
		await t.control('POST', '/webhooks/delivery', { kyc_payload: 'unlisted' });
		await t.control('POST', `/subjects/${subject.id}/approve`, {});
		await wait();
		const kyc = rx.received.filter((body) => body.data);
		expect(kyc).toHaveLength(1);
		expect(kyc[0]).toEqual({
			data: expect.objectContaining({ id: subject.id, status: 'approved' }),
		});
		expect(JSON.stringify(kyc[0])).not.toContain('secret');
		expect((await list()).filter((rec) => rec.notification.data)).toEqual([]);
		await t.control('POST', '/webhooks/delivery', { kyc_payload: 'listed' });
		await t.control('POST', `/subjects/${subject.id}/approve`, {});
		await wait();
		const listed = (await list()).filter((rec) => rec.notification.data);
		expect(listed).toHaveLength(1);
		expect(listed[0].notification).toEqual({
			data: expect.objectContaining({ id: subject.id, status: 'approved' }),
		});
		expect((await t.control('POST', '/webhooks/delivery', { kyc_payload: 'yes' })).status).toBe(
			422,
		);
	});

	test('fields the spec does not list are added to every event of a type', async () => {
		const secret = await enable();
		await t.control('POST', '/webhooks/delivery', {
			extra_fields: { payment_failed: { failure_reason: 'insufficient_funds' } },
		});
		await t.control('POST', '/events', { type: 'payment_failed', transaction_id: 't1' });
		await t.control('POST', '/events', { type: 'identified', transaction_id: 't2' });
		expect(rx.received).toEqual([
			{
				notification: {
					type: 'payment_failed',
					secret,
					transaction_id: 't1',
					failure_reason: 'insufficient_funds',
				},
			},
			{ notification: { type: 'identified', secret, transaction_id: 't2' } },
		]);
	});
});

/** A receiver whose answer (a status) comes from `handle`, awaited per request. */
async function startSlowReceiver(handle) {
	const http = await import('node:http');
	const server = http.createServer((req, res) => {
		req.resume();
		req.on('end', async () => {
			const status = await handle();
			if (res.destroyed) return;
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end('{}');
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}/hook`,
		close: () => {
			server.closeAllConnections?.();
			return new Promise((resolve) => server.close(resolve));
		},
	};
}
