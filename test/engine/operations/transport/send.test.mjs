// The send loop and the item engine around money-moving requests on n8n's engine: what an error
// says, what is still sent after a failure, a session token that expired, error answers.
import { createRequire } from 'node:module';
import { nodeRequire } from '../../lib/nodeRequire.mjs';
import path from 'node:path';
import { ROOT } from '../../lib/engine.mjs';
import { reply, RESET, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { whenReady } from '../money/lib.mjs';

const require = createRequire(import.meta.url);
const { defaultRetryOptions } = nodeRequire(
	path.join(ROOT, 'dist/nodes/FacilitaPay/transport/index.js'),
);
const { BinaryDataService } = nodeRequire('n8n-core');
const {
	BRL_NO_PIX_KEY,
	dynamicPixParameters,
	payoutParameters,
} = require('../../../fixtures/transactions.js');
const { browserParameters } = require('../../../fixtures/cards.js');

const op = useOperations();
const waits = skipRetryWaits();

const CREATE = 'POST /transactions';
const SIGN_IN = 'POST /sign_in';
const locator = (value) => ({ __rl: true, mode: 'id', value });
const payout = (value, extra = {}) => {
	const parameters = payoutParameters(value, extra);
	return { ...parameters, subjectId: locator(parameters.subjectId) };
};
const valueOf = (request) => request.body.transaction.value;
const signInCredentials = (extra = {}) => ({
	authentication: 'usernamePassword',
	username: 'u',
	password: 'p',
	...extra,
});

describe('every path keeps its truth', () => {
	it.each([
		['its connection was reset', RESET, /^Could not sign in to FacilitaPay \(item 0\)/],
		[
			'FacilitaPay could not answer it (503)',
			reply(503, 'Service Unavailable'),
			/^FacilitaPay refused the sign-in \(item 0\): Service Unavailable/,
		],
	])(
		'a sign-in that failed (%s) means the payout was not sent',
		async (_case, failure, message) => {
			const { error, requests } = await op.run({
				parameters: [payout('16.00')],
				credentials: signInCredentials(),
				replies: { [SIGN_IN]: failure, [CREATE]: { data: { id: 'p-16' } } },
			});
			expect(requests.filter((request) => request.route === CREATE)).toHaveLength(0);
			expect(requests.some((request) => request.route === SIGN_IN)).toBe(true);
			expect(error.context.outcome).toBe('notSent');
			expect(error.message).toMatch(message);
			expect(error.description).toMatch(/Nothing was sent to FacilitaPay for this item/);
		},
	);

	it('a payout whose output could not be built is "Done (ID …)", not failed', async () => {
		const store = BinaryDataService.prototype.store;
		BinaryDataService.prototype.store = async () => {
			throw new Error('the binary data store is full');
		};
		let result;
		try {
			result = await op.run({
				parameters: {
					...dynamicPixParameters({
						toBankAccountId: BRL_NO_PIX_KEY,
						exchangeCurrency: 'BRL',
						value: '10.00',
						dynamicPixExpiresAt: '',
						qrCodeImage: true,
					}),
					subjectId: locator(dynamicPixParameters().subjectId),
				},
				replies: {
					[CREATE]: {
						data: {
							id: 'pix-77',
							dynamic_pix_code:
								'00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
						},
					},
				},
			});
		} finally {
			BinaryDataService.prototype.store = store;
		}
		const { error, requests } = result;
		expect(error.message).toMatch(
			/^Done \(ID pix-77\) \(item 0\), but its output could not be built/,
		);
		expect(error.context.outcome).toBe('done');
		expect(requests.filter((request) => request.route === CREATE)).toHaveLength(1);
	});

	it('a card subscription whose answer was lost (connection reset) keeps "Outcome unknown" after its card data is hidden', async () => {
		const { items, requests } = await op.run({
			parameters: {
				resource: 'subscription',
				operation: 'create',
				paymentMethod: 'card',
				subjectId: locator(payoutParameters().subjectId),
				value: '49.90',
				frequency: 'month',
				cycles: 12,
				toBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000001',
				cardNumber: '4111111111111111',
				cardExpirationDate: '08/2099',
				cardBrand: 'visa',
				cardSecurityCode: '737',
				fullname: 'Maria Silva',
				cardType: 'credit',
				dfReferenceId: 'df-session-0001',
				mcc: '8999',
				...browserParameters,
				additionalFields: {},
			},
			continueOnFail: true,
			replies: { 'POST /subscriptions': RESET },
		});
		expect(requests.filter((request) => request.route === 'POST /subscriptions')).toHaveLength(1);
		expect(items[0].json.outcome).toBe('unknown');
		expect(items[0].json.error).toMatch(/^Outcome unknown \(item 0\)/);
		expect(JSON.stringify(items)).not.toContain('4111111111111111');
	});

	it('one bad item of two: the error says once that nothing was sent for any item', async () => {
		const { error, requests } = await op.run({
			parameters: [payout('1.00'), payout('1.999')],
			replies: { [CREATE]: { data: { id: 'p-1' } } },
		});
		expect(requests).toHaveLength(0);
		expect(error.description).toMatch(/Nothing was sent to FacilitaPay for any item/);
		expect(error.description).not.toMatch(/for this item/);
	});
});

describe('after the first failure, nothing more leaves', () => {
	it('a request waiting out a Retry-After is cancelled when another item fails, and counted as not sent', async () => {
		// An earlier payout to the subject: this process knows where its list stands, so the next
		// run's items leave side by side.
		const earlier = await op.run({
			parameters: [payout('0.50')],
			replies: { [CREATE]: { data: { id: 'p-0.50' } } },
		});
		expect(earlier.error).toBeUndefined();
		let release = () => {};
		// The node's wait for the Retry-After lasts until the test ends it.
		defaultRetryOptions.wait = async () => await new Promise((resolve) => (release = resolve));
		let limited = false;
		const { error, requests } = await op.run({
			parameters: ['1.00', '2.00', '3.00'].map((value) =>
				payout(value, { requestOptions: { concurrency: 2 } }),
			),
			replies: {
				[CREATE]: (request) => {
					const value = valueOf(request);
					if (value === '2.00') {
						limited = true;
						return reply(429, { error: 'too_many_requests' }, { 'retry-after': '30' });
					}
					// Item 0 is refused once item 1 waits out its Retry-After.
					if (value === '1.00')
						return whenReady(
							() => limited,
							() => reply(422, { errors: { value: ['no'] } }),
						);
					return { data: { id: `p-${value}` } };
				},
			},
		});
		release();
		const sent = requests.filter((request) => request.route === CREATE).map(valueOf);
		expect(sent.filter((value) => value === '2.00')).toHaveLength(1);
		expect(sent).not.toContain('3.00');
		expect(error.description).toMatch(/Not sent \(the run stopped at the first failure\): 1–2/);
	});
});

describe('a session token that expired is renewed, whatever the interleaving', () => {
	it('a request refused with 401 is sent again with a new token n8n got from the credential', async () => {
		// FacilitaPay: each sign-in hands out a new token; a token it has expired is refused with 401.
		const valid = new Set();
		const authorized = ({ headers }) => valid.has(headers.authorization);
		const refusedToken = reply(401, { error: 'invalid_token' });
		const replies = {
			[SIGN_IN]: (_request, index) => {
				valid.add(`Bearer t-${index + 1}`);
				return { jwt: `t-${index + 1}` };
			},
			'GET /notifications': (request) => (authorized(request) ? { data: [] } : refusedToken),
			[CREATE]: (request) =>
				authorized(request) ? { data: { id: `p-${valueOf(request)}` } } : refusedToken,
		};
		// One credential (one engine): n8n keeps the session token its sign-in got.
		const engine = await op.engine({ credentials: signInCredentials() });
		const first = await op.run({ engine, parameters: [payout('19.00')], replies });
		expect(first.items[0].json.id).toBe('p-19.00');
		// The token expires at FacilitaPay.
		valid.clear();
		const { items, requests, error } = await op.run({ engine, parameters: [payout('20.00')] });
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe('p-20.00');
		const creates = requests.filter(
			(request) => request.route === CREATE && valueOf(request) === '20.00',
		);
		expect(creates.map((request) => request.headers.authorization)).toEqual([
			'Bearer t-1',
			'Bearer t-2',
		]);
		const signIns = requests.filter((request) => request.route === SIGN_IN);
		expect(signIns).toHaveLength(2);
		expect(signIns[1].body).toEqual({ user: { username: 'u', password: 'p' } });
	});
});

describe('error answers on a payout', () => {
	it('a 429 is waited out by its Retry-After, then sent once more', async () => {
		const { items, requests } = await op.run({
			parameters: [payout('21.00')],
			replies: {
				[CREATE]: [
					reply(429, { error: 'too_many_requests' }, { 'Retry-After': '7' }),
					reply(201, { data: { id: 'p-21' } }),
				],
			},
		});
		expect(requests).toHaveLength(2);
		expect(waits[0]).toBeGreaterThanOrEqual(7000);
		expect(items[0].json.id).toBe('p-21');
	});

	it('a 422 fails the item with the service’s words', async () => {
		const { error } = await op.run({
			parameters: [payout('22.00')],
			replies: { [CREATE]: reply(422, { errors: { value: ['must be positive'] } }) },
		});
		expect(error.message).toBe('FacilitaPay rejected the data (item 0): value: must be positive');
		expect(error.context.outcome).toBe('failed');
	});
});
