/**
 * Helpers of the sandbox tests: an in-process sandbox on port 0 with a fixed virtual clock,
 * HTTP helpers over real sockets, and a tiny webhook receiver.
 */
import http from 'node:http';
import { createSandbox } from '../../sandbox/server.mjs';
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import { PAY_IN_ACCOUNT_IDS } from '../../sandbox/domain/localPayIns.mjs';

export { ACCOUNT_IDS };
/** A Monday, 12:00 UTC. */
export const START = '2025-03-10T12:00:00Z';
export const TOKEN = 'sandbox-token';

export async function startSandbox(options = {}) {
	const sb = await createSandbox({ port: 0, now: START, ...options });
	await sb.listen();
	const call = async (method, path, body, headers = {}) => {
		const init = { method, headers: { ...headers } };
		if (body !== undefined) {
			init.headers['content-type'] = 'application/json';
			init.body = typeof body === 'string' ? body : JSON.stringify(body);
		}
		const res = await fetch(`${sb.url}${path}`, init);
		const text = await res.text();
		let json = null;
		try {
			json = JSON.parse(text);
		} catch {
			json = null;
		}
		return { status: res.status, headers: res.headers, json, text };
	};
	/** Authenticated API call under /api/v1. */
	const api = (method, path, body, token = TOKEN) =>
		call(
			method,
			`/api/v1${path}`,
			body,
			token === null ? {} : { authorization: `Bearer ${token}` },
		);
	/** Control call under /_sandbox. */
	const control = (method, path, body) => call(method, `/_sandbox${path}`, body);
	const advance = (seconds) => control('POST', '/clock/advance', { seconds });
	const events = async () => (await control('GET', '/events')).json.data;
	const eventTypes = async () => (await events()).map((event) => event.type);
	return { sb, call, api, control, advance, events, eventTypes, close: () => sb.close() };
}

/**
 * One sandbox for the test file (jest hooks), reset before each test. The object returned is the
 * one `startSandbox` gives (api, control, advance, events…), filled in before the first test; with
 * `withPerson`, `t.subject` is a complete person registered after each reset.
 */
export function useSandbox({ withPerson = false, ...options } = {}) {
	const t = {};
	beforeAll(async () => Object.assign(t, await startSandbox(options)));
	afterAll(() => t.close());
	beforeEach(async () => {
		await t.control('POST', '/reset');
		if (withPerson) t.subject = await createPerson(t);
	});
	return t;
}

/** A receiver of webhooks on port 0; `respond` decides the status code of each delivery. */
export async function startReceiver() {
	const received = [];
	const state = { status: 200 };
	const server = http.createServer((req, res) => {
		let data = '';
		req.on('data', (c) => (data += c));
		req.on('end', () => {
			received.push(JSON.parse(data));
			const status =
				typeof state.status === 'function' ? state.status(received.length) : state.status;
			res.writeHead(status, { 'content-type': 'application/json' });
			res.end('{}');
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		respondWith(status) {
			state.status = status;
		},
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/** A complete Brazilian person (boleto, card and account request need all of it). */
export function person(overrides = {}) {
	return {
		document_type: 'cpf',
		document_number: '39053344705',
		social_name: 'Maria da Silva',
		fiscal_country: 'BR',
		email: 'maria@example.com',
		website: 'https://maria.example.com',
		phone_country_code: '55',
		phone_area_code: '11',
		phone_number: '987654321',
		birth_date: '1990-05-17',
		net_monthly_average_income: '5000.00',
		address_street: 'Rua Augusta',
		address_number: '100',
		address_neighborhood: 'Consolação',
		address_postal_code: '01304000',
		address_city: 'São Paulo',
		address_state: 'SP',
		address_country: 'BR',
		...overrides,
	};
}

export async function createPerson(t, overrides = {}) {
	const r = await t.api('POST', '/subject/people', { person: person(overrides) });
	if (r.status !== 200) throw new Error(`person not created: ${r.text}`);
	return r.json.data;
}

export function dynamicPix(subjectId, overrides = {}) {
	return {
		transaction: {
			subject_id: subjectId,
			from_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
			to_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
			currency: 'BRL',
			exchange_currency: 'BRL',
			value: '150.00',
			use_dynamic_pix: true,
			dynamic_pix_expires_at: '2025-03-10T13:00:00Z',
			...overrides,
		},
	};
}

/** A payout: the partner's USD cash-out account to the customer's BRL account. */
export function payout(subjectId, overrides = {}) {
	return {
		transaction: {
			subject_id: subjectId,
			from_bank_account_id: ACCOUNT_IDS.usdCashOut,
			to_bank_account_id: ACCOUNT_IDS.brlCustomer,
			currency: 'USD',
			exchange_currency: 'BRL',
			value: '100.00',
			...overrides,
		},
	};
}

/** A local pay-in (live docs): Mexican pesos from the subject's real account to the MXN cash-in account. */
export function localPayIn(subjectId, overrides = {}) {
	return {
		subject_id: subjectId,
		from_bank_account_id: PAY_IN_ACCOUNT_IDS.mxnReal,
		to_bank_account_id: PAY_IN_ACCOUNT_IDS.mxnCashIn,
		currency: 'MXN',
		exchange_currency: 'MXN',
		value: '1500.00',
		...overrides,
	};
}

export const PDF_BASE64 = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n').toString(
	'base64',
);
export const PNG_BASE64 = Buffer.from([
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13,
]).toString('base64');
