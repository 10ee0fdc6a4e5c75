// Transaction > Describe for Review, and the Reviewed Text of Create Payout, Refund and Cancel, on
// n8n's engine against a FacilitaPay scripted by route: the words a person approves name the
// amount, the currency, who receives the money and the customer from FacilitaPay's records, and a
// money request whose approved words no longer match it is not sent.
import subjects from '../../../fixtures/subjects.js';
import { reply, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { holdingService } from './lib.mjs';

const { SUBJECT_ID } = subjects;
const CASH_OUT = '0b5e7c2a-1f3d-4a8e-9c61-000000000003';
const TO_ACCOUNT = '0b5e7c2a-1f3d-4a8e-9c61-00000000a001';
const PERSON = {
	id: SUBJECT_ID,
	social_name: 'Maria da Silva',
	document_type: 'cpf',
	document_number: '39053344705',
	status: 'approved',
};
const ACCOUNT = {
	id: TO_ACCOUNT,
	owner_name: 'Maria da Silva',
	bank: { name: 'Itaú Unibanco S.A.', code: '341' },
	branch_number: '0001',
	account_number: '123456',
};

const op = useOperations();
skipRetryWaits();

const payout = (extra = {}) => ({
	subjectId: SUBJECT_ID,
	value: '1500.00',
	currency: 'USD',
	exchangeCurrency: 'BRL',
	fromBankAccountId: CASH_OUT,
	toBankAccountId: TO_ACCOUNT,
	idempotencyKey: 'INV-7',
	...extra,
});

/** FacilitaPay holding Maria, and (unless `paidBefore` is false) an earlier payout to her account. */
function facilitaPay({ paidBefore = true, person = PERSON } = {}) {
	const held = holdingService();
	if (paidBefore)
		held.records.push({
			id: 'tx-old',
			subject_id: SUBJECT_ID,
			status: 'wired',
			value: '10.00',
			currency: 'USD',
			to_bank_account: ACCOUNT,
			meta: {},
		});
	return {
		held,
		replies: {
			...held.replies,
			'GET /subject/people/:id': () =>
				person ? { data: person } : reply(404, { error: 'not_found' }),
		},
	};
}

const describeRun = (fields, replies) =>
	op.run({
		parameters: {
			resource: 'transaction',
			operation: 'describeForReview',
			reviewOf: 'createPayout',
			...fields,
		},
		replies,
	});

const payoutRun = (fields, replies) =>
	op.run({
		parameters: { resource: 'transaction', operation: 'createPayout', ...fields },
		replies,
	});

const posts = (requests) => requests.filter((r) => r.method === 'POST');

describe('Transaction > Describe for Review', () => {
	it('a payout in words: amount and currency, the holder and bank of the account paid before, the customer, the reference; nothing sent', async () => {
		const { replies } = facilitaPay();
		const { items, requests, error } = await describeRun(payout(), replies);
		expect(error).toBeUndefined();
		expect(posts(requests)).toHaveLength(0);
		expect(items[0].json.review).toBe(
			'Payout of USD 1,500.00, converted to BRL, from your account …0003 to Maria da Silva (Itaú Unibanco S.A. 341, branch 0001, account …3456), for customer Maria da Silva (CPF ***.533.447-**). Reference: INV-7 (paid once, however often it is asked).',
		);
		expect(items[0].json.request).toMatchObject({
			operation: 'createPayout',
			body: { transaction: { value: '1500.00', to_bank_account_id: TO_ACCOUNT } },
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('an account never paid before: says its holder cannot be read, and names the customer', async () => {
		const { replies } = facilitaPay({ paidBefore: false });
		const { items } = await describeRun(payout(), replies);
		expect(items[0].json.review).toContain(
			'to bank account …a001 (FacilitaPay has paid nothing to it before, so its holder cannot be read',
		);
		expect(items[0].json.review).toContain('for customer Maria da Silva (CPF ***.533.447-**)');
	});

	it('a refund: the transaction’s amount, date, status and payer, from FacilitaPay’s record', async () => {
		const { replies } = facilitaPay();
		const { items } = await describeRun(
			{ reviewOf: 'refund', transactionId: 'tx-9', idempotencyKey: 'RF-1' },
			{
				...replies,
				'GET /transactions/:id': {
					data: {
						id: 'tx-9',
						value: '150.00',
						currency: 'BRL',
						status: 'identified',
						inserted_at: '2026-12-01T10:00:00.123456',
						source_name: 'João Souza',
						source_document_type: 'cpf',
						source_document_number: '70590071050',
						subject: PERSON,
					},
				},
			},
		);
		expect(items[0].json.review).toBe(
			'Refund of BRL 150.00, the whole of transaction tx-9 of 2026-12-01, given back to its payer João Souza (CPF ***.900.710-**). Reference: RF-1 (paid once, however often it is asked).',
		);
	});

	it('invalid input is refused as the operation refuses it, before any read', async () => {
		const { replies } = facilitaPay();
		const { error, requests } = await describeRun(payout({ value: '1500.001' }), replies);
		expect(error.message).toMatch(/Value/);
		expect(requests).toHaveLength(0);
	});
});

describe('Reviewed Text on a money operation', () => {
	it('the approved words match: sent once', async () => {
		const { replies, held } = facilitaPay();
		const described = await describeRun(payout(), replies);
		const { error, requests } = await payoutRun(
			payout({ reviewedText: described.items[0].json.review }),
			replies,
		);
		expect(error).toBeUndefined();
		expect(posts(requests)).toHaveLength(1);
		expect(held.created).toHaveLength(1);
	});

	it('the same approved payout asked again (same reference): FacilitaPay’s record of it is the answer, sent once', async () => {
		const { replies, held } = facilitaPay();
		const described = await describeRun(payout(), replies);
		const reviewed = payout({ reviewedText: described.items[0].json.review });
		const first = await payoutRun(reviewed, replies);
		const again = await payoutRun(reviewed, replies);
		expect(first.error).toBeUndefined();
		expect(again.error).toBeUndefined();
		expect(held.created).toHaveLength(1);
		expect(again.items[0].json).toMatchObject({ alreadyDone: true, id: first.items[0].json.id });
	});

	it('words approved for another amount: refused, both texts named, nothing sent', async () => {
		const { replies, held } = facilitaPay();
		const described = await describeRun(payout({ value: '150.00' }), replies);
		const { error, requests } = await payoutRun(
			payout({ reviewedText: described.items[0].json.review }),
			replies,
		);
		expect(error.message).toBe(
			'The approved text does not match this payout. Nothing was sent (item 0)',
		);
		expect(error.description).toContain('Approved: "Payout of USD 150.00');
		expect(error.description).toContain(
			'as FacilitaPay\'s records stand now: "Payout of USD 1,500.00',
		);
		expect(posts(requests)).toHaveLength(0);
		expect(held.created).toHaveLength(0);
	});

	it('FacilitaPay’s record changed after the approval (the customer’s name): refused, nothing sent', async () => {
		const before = facilitaPay();
		const described = await describeRun(payout(), before.replies);
		const after = facilitaPay({ person: { ...PERSON, social_name: 'Mário Souza' } });
		const { error, requests } = await payoutRun(
			payout({ reviewedText: described.items[0].json.review }),
			after.replies,
		);
		expect(error.message).toMatch(/^The approved text does not match this payout/);
		expect(error.description).toContain('Mário Souza');
		expect(posts(requests)).toHaveLength(0);
	});

	it('the words cannot be checked (FacilitaPay answers 503): refused, nothing sent', async () => {
		const { replies } = facilitaPay();
		const described = await describeRun(payout(), replies);
		const { error, requests } = await payoutRun(
			payout({ reviewedText: described.items[0].json.review }),
			{ ...replies, 'GET /subject/people/:id': reply(503, 'Service Unavailable') },
		);
		expect(error.message).toBe(
			'The approved text of this payout could not be checked against FacilitaPay. Nothing was sent (item 0)',
		);
		expect(posts(requests)).toHaveLength(0);
	});

	it('Require Reviewed Text without one: refused, telling how to get it; without the option: sent as before', async () => {
		const { replies, held } = facilitaPay();
		const refused = await payoutRun(payout({ requireReviewedText: true }), replies);
		expect(refused.error.message).toBe(
			'This payout needs the reviewed text, and the call had none. Nothing was sent (item 0)',
		);
		expect(refused.error.description).toMatch(/Describe for Review/);
		expect(posts(refused.requests)).toHaveLength(0);
		const plain = await payoutRun(payout(), replies);
		expect(plain.error).toBeUndefined();
		expect(held.created).toHaveLength(1);
	});

	it('approved when FacilitaPay had never paid the account; the holder known by the time it is sent (a retry after the payout was made): still the same payout', async () => {
		const never = facilitaPay({ paidBefore: false });
		const described = await describeRun(payout(), never.replies);
		expect(described.items[0].json.review).toContain('paid nothing to it before');
		const known = facilitaPay();
		const { error, requests } = await payoutRun(
			payout({ reviewedText: described.items[0].json.review }),
			known.replies,
		);
		expect(error).toBeUndefined();
		expect(posts(requests)).toHaveLength(1);
	});

	it('as a tool, one execution sends one approved request: asked again with the same words, once; other words in the same execution, refused (n8n’s Approve link of an earlier review approves the next one)', async () => {
		const { replies, held } = facilitaPay();
		const wordsFor = async (fields) =>
			(await describeRun(payout(fields), replies)).items[0].json.review;
		const first = await op.run({
			nodeType: 'facilitaPayTool',
			parameters: {
				resource: 'transaction',
				operation: 'createPayout',
				...payout({ reviewedText: await wordsFor({}) }),
			},
			replies,
		});
		expect(first.error).toBeUndefined();
		expect(first.customData.facilitapay_reviewed).toMatch(/^[\w-]{22}$/);
		const same = await op.run({
			nodeType: 'facilitaPayTool',
			customData: first.customData,
			parameters: {
				resource: 'transaction',
				operation: 'createPayout',
				...payout({ reviewedText: await wordsFor({}) }),
			},
			replies,
		});
		expect(same.error).toBeUndefined();
		expect(same.items[0].json.alreadyDone).toBe(true);
		const other = await op.run({
			nodeType: 'facilitaPayTool',
			customData: first.customData,
			parameters: {
				resource: 'transaction',
				operation: 'createPayout',
				...payout({
					value: '20.00',
					idempotencyKey: 'INV-8',
					reviewedText: await wordsFor({ value: '20.00', idempotencyKey: 'INV-8' }),
				}),
			},
			replies,
		});
		expect(other.error.message).toMatch(
			/^This execution already sent the money of another approved request, so this payout was not sent/,
		);
		expect(other.error.description).toMatch(/new message/);
		expect(held.created).toHaveLength(1);
		// The action node in a workflow (many items, one approval each) has no such rule.
		const plain = await payoutRun(
			payout({
				value: '20.00',
				idempotencyKey: 'INV-8',
				reviewedText: await wordsFor({ value: '20.00', idempotencyKey: 'INV-8' }),
			}),
			replies,
		);
		expect(plain.error).toBeUndefined();
		expect(held.created).toHaveLength(2);
	});

	it('as a tool, the same payout described again with other words (its holder known since): still the one request of the execution, kept once', async () => {
		const never = facilitaPay({ paidBefore: false });
		const first = await op.run({
			nodeType: 'facilitaPayTool',
			parameters: {
				resource: 'transaction',
				operation: 'createPayout',
				...payout({
					reviewedText: (await describeRun(payout(), never.replies)).items[0].json.review,
				}),
			},
			replies: never.replies,
		});
		expect(first.error).toBeUndefined();
		const known = facilitaPay();
		known.held.records.push(...never.held.records);
		const words = (await describeRun(payout(), known.replies)).items[0].json.review;
		expect(words).toContain('to Maria da Silva (Itaú');
		const again = await op.run({
			nodeType: 'facilitaPayTool',
			customData: first.customData,
			parameters: {
				resource: 'transaction',
				operation: 'createPayout',
				...payout({ reviewedText: words }),
			},
			replies: known.replies,
		});
		expect(again.error).toBeUndefined();
		expect(again.items[0].json.alreadyDone).toBe(true);
		expect(never.held.created.length + known.held.created.length).toBe(1);
	});

	it('Cancel with the approved words of its transaction: sent once', async () => {
		const { replies } = facilitaPay();
		const record = {
			id: 'tx-5',
			value: '80.00',
			currency: 'BRL',
			status: 'pending',
			subject_id: SUBJECT_ID,
			subject: PERSON,
		};
		const withRecord = {
			...replies,
			'GET /transactions/:id': { data: record },
			'GET /transactions/:id/refund': { data: { id: 'void-1', status: 'canceled' } },
		};
		const described = await describeRun({ reviewOf: 'cancel', transactionId: 'tx-5' }, withRecord);
		expect(described.items[0].json.review).toBe(
			'Cancel transaction tx-5: BRL 80.00 for customer Maria da Silva (CPF ***.533.447-**); FacilitaPay will not process it. Reference: none (every call without one is another payment).',
		);
		const { error, requests } = await op.run({
			parameters: {
				resource: 'transaction',
				operation: 'cancel',
				transactionId: 'tx-5',
				reviewedText: described.items[0].json.review,
			},
			replies: withRecord,
		});
		expect(error).toBeUndefined();
		expect(requests.filter((r) => r.route === 'GET /transactions/:id/refund')).toHaveLength(1);
	});
});
