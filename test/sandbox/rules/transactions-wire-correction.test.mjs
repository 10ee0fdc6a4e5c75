// Wire correction (PUT /wires/:id/update_bank_account) called on its own: which corrected accounts
// are valid, and a held wire's way back to `sent`.
import {
	ACCOUNT_IDS,
	refusal,
	storedTransaction,
	transactionTestEnv,
} from './transactions-env.mjs';
import { settle } from '../../../sandbox/domain/transactions/settlement.mjs';
import {
	updateWireBankAccount,
	wireAccountErrors,
} from '../../../sandbox/domain/transactions/wireCorrection.mjs';

describe('wire correction (PUT /wires/:id/update_bank_account)', () => {
	const account = (fields = {}) => ({
		currency: 'USD',
		bank: { code: '021000021', name: 'JPMorgan Chase Bank, N.A.' },
		branch_number: '0001',
		branch_country: 'US',
		account_number: '000999888777',
		account_type: 'conta-corrente',
		owner_document_number: '39053344705',
		owner_name: 'Maria da Silva',
		...fields,
	});
	const wire = { currency: 'USD' };

	test.each([
		[account()],
		[account({ account_type: 'poupanca' })],
		[account({ branch_country: 'USA' })],
	])('%p is a valid correction', (ba) => {
		expect(wireAccountErrors(ba, wire).map).toEqual({});
	});

	test.each([
		[undefined, { bank_account: ["can't be blank"] }],
		['US-123', { bank_account: ["can't be blank"] }],
		[account({ currency: 'EUR' }), { currency: ['must equal the wire currency (USD)'] }],
		[
			account({ currency: 'XYZ' }),
			{
				currency: [
					'must be one of: BRL, USD, EUR, MXN, COP, CLP',
					'must equal the wire currency (USD)',
				],
			},
		],
		[account({ bank: undefined }), { bank: ["can't be blank"] }],
		[account({ bank: { code: '341' } }), { 'bank.name': ["can't be blank"] }],
		[
			account({ branch_country: 'usa' }),
			{ branch_country: ['must be a two- or three-letter country code, e.g. "BR" or "BRA"'] },
		],
		[account({ branch_country: '' }), { branch_country: ["can't be blank"] }],
		[
			account({ account_type: 'savings' }),
			{ account_type: ['must be one of: conta-corrente, poupanca'] },
		],
		[account({ owner_name: ' ' }), { owner_name: ["can't be blank"] }],
		[
			account({ account_number: null, branch_number: null }),
			{ branch_number: ["can't be blank"], account_number: ["can't be blank"] },
		],
	])('%p is refused: %p', (ba, errors) => {
		expect(wireAccountErrors(ba, wire).map).toEqual(errors);
	});

	/** A wire played into waiting_correction. */
	function heldWire(env) {
		const transaction = storedTransaction(env);
		const { wires } = settle(env, { wire_error_code: 'AC03' });
		return { transaction, wire: wires[0] };
	}

	test('a wire waiting for correction gets a new account, then is sent a minute later', async () => {
		const { env, state, clock, events } = transactionTestEnv();
		const { transaction, wire } = heldWire(env);
		const answer = updateWireBankAccount(wire.id, { bank_account: account() }, env);
		expect(answer).toMatchObject({
			status: 'waiting_confirmation',
			to_bank_account: { account_number: '000999888777', branch_country: 'US', internal: false },
		});
		expect(answer.to_bank_account.id).not.toBe(ACCOUNT_IDS.usdDestination);
		expect(state.bankAccounts.get(answer.to_bank_account.id)).toBe(answer.to_bank_account);
		await clock.advance(59 * 1000);
		expect(wire.status).toBe('waiting_confirmation');
		await clock.advance(1000);
		expect(wire).toMatchObject({ status: 'sent', error_code: null, error_description: null });
		expect(transaction.status).toBe('wired');
		expect(events.at(-1)).toEqual({
			type: 'wire_created',
			wire_id: wire.id,
			transaction_ids: [transaction.id],
		});
	});

	test('a wire that is not waiting for correction is refused', () => {
		const { env } = transactionTestEnv();
		storedTransaction(env);
		const { wires } = settle(env);
		expect(
			refusal(() => updateWireBankAccount(wires[0].id, { bank_account: account() }, env)),
		).toEqual({
			errors: { status: ['the wire is sent; only a wire waiting for correction can be updated'] },
		});
	});

	test('a refused body changes nothing', () => {
		const { env } = transactionTestEnv();
		const { wire } = heldWire(env);
		const before = wire.to_bank_account;
		expect(
			refusal(() =>
				updateWireBankAccount(wire.id, { bank_account: account({ currency: 'EUR' }) }, env),
			),
		).toEqual({
			errors: { currency: ['must equal the wire currency (USD)'] },
		});
		expect(wire).toMatchObject({ status: 'waiting_correction', to_bank_account: before });
	});

	test('an unknown wire is not found', () => {
		const { env } = transactionTestEnv();
		expect(
			refusal(() => updateWireBankAccount('no-such-wire', { bank_account: account() }, env)),
		).toEqual({
			error: 'not_found',
		});
	});
});
