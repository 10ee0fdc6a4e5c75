// Wire > Update Bank Account on n8n's engine, against a FacilitaPay scripted by route. What the
// editor shows (the error-code notice) is read from the description in
// test/unit/actions/wire/wire.description.test.ts.
import { reply, RESET, skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { wireBankAccountParameters } from '../../../fixtures/bankAccounts.js';

const WIRE_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const UPDATE = 'PUT /wires/:id/update_bank_account';

const op = useOperations();
const waits = skipRetryWaits();

const wire = {
	data: { id: WIRE_ID, status: 'waiting_confirmation', value: '100.00', unretryable: false },
};

const params = (overrides = {}) => ({
	resource: 'wire',
	operation: 'updateBankAccount',
	wireId: WIRE_ID,
	...wireBankAccountParameters,
	...overrides,
});

/**
 * The parameters with the overridden fields written as expressions reading the item, and that
 * item: how a value n8n would refuse typed in (an empty required field) reaches the node.
 */
const fromItem = (overrides) => ({
	parameters: params(
		Object.fromEntries(Object.keys(overrides).map((name) => [name, `={{ $json.${name} }}`])),
	),
	items: [{ json: overrides }],
});

describe('Wire > Update Bank Account', () => {
	it('sends PUT /wires/:id/update_bank_account with the whole bank_account and returns the wire', async () => {
		const { items, requests, error } = await op.run({
			parameters: params(),
			replies: { [UPDATE]: wire },
		});
		expect(error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'PUT', route: UPDATE, params: { id: WIRE_ID } });
		expect(requests[0].body).toEqual({
			bank_account: {
				currency: 'BRL',
				bank: { code: '001', name: 'Banco do Brasil' },
				branch_number: '0001',
				account_number: '12345-6',
				owner_document_number: '39053344705',
				owner_name: 'Maria da Silva',
				branch_country: 'BR',
				account_type: 'conta-corrente',
			},
		});
		expect(items).toEqual([{ json: wire.data, pairedItem: { item: 0 } }]);
	});

	it.each([
		[
			'savings and a CNPJ owner',
			{ accountType: 'poupanca', ownerDocumentNumber: '16.727.230/0001-97' },
			{ account_type: 'poupanca', owner_document_number: '16727230000197' },
		],
		[
			'an alphanumeric CNPJ',
			{ ownerDocumentNumber: '12ABC34501DE35' },
			{ owner_document_number: '12ABC34501DE35' },
		],
		[
			'the three-letter country of FacilitaPay’s own examples (BRA, COL)',
			{ branchCountry: 'bra' },
			{ branch_country: 'BRA' },
		],
		['an account with check digit X', { accountNumber: '98765-x' }, { account_number: '98765-X' }],
		[
			'an account without check digit, 5-digit branch',
			{ accountNumber: '1234567', branchNumber: '12345' },
			{ account_number: '1234567', branch_number: '12345' },
		],
	])('accepts %s', async (_name, overrides, sent) => {
		const { requests } = await op.run({
			parameters: params(overrides),
			replies: { [UPDATE]: wire },
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].body.bank_account).toMatchObject(sent);
	});

	it('checks only "not empty" for bank details outside Brazil', async () => {
		const { requests } = await op.run({
			parameters: params({
				branchCountry: 'MX',
				currency: 'MXN',
				bankCode: '0012',
				branchNumber: 'N/A',
				accountNumber: '012180001234567897',
				ownerDocumentNumber: 'BOXW310820HNERXN09',
			}),
			replies: { [UPDATE]: wire },
		});
		expect(requests[0].body.bank_account).toMatchObject({
			currency: 'MXN',
			branch_country: 'MX',
			bank: { code: '0012', name: 'Banco do Brasil' },
			branch_number: 'N/A',
		});
	});

	it.each([
		['an empty owner name', { ownerName: '' }],
		['an empty account number', { accountNumber: '' }],
		['an empty wire id', { wireId: '' }],
	])(
		'typed in, %s is refused by n8n before the workflow starts (the field is required)',
		async (_name, overrides) => {
			const { error, requests } = await op.run({ parameters: params(overrides) });
			expect(requests).toHaveLength(0);
			expect(error.message).toMatch(/The 'FacilitaPay' node has issues/);
		},
	);

	it.each([
		[
			'a 4-digit Brazilian bank code',
			{ bankCode: '0001' },
			/Invalid Bank Code \(item 0\): has 4 digits; a Brazilian bank code has exactly 3 digits/,
		],
		[
			'a bank code with letters',
			{ bankCode: 'BB1' },
			/Invalid Bank Code \(item 0\): must contain digits only/,
		],
		[
			'a branch with a dash',
			{ branchNumber: '1234-5' },
			/Invalid Branch Number \(item 0\): must contain digits only/,
		],
		[
			'a 6-digit branch',
			{ branchNumber: '123456' },
			/Invalid Branch Number \(item 0\): has 6 digits/,
		],
		[
			'an account with dots',
			{ accountNumber: '12.345-6' },
			/Invalid Account Number \(item 0\): must contain digits only/,
		],
		[
			'an owner CPF with wrong check digits',
			{ ownerDocumentNumber: '23100299900' },
			/Invalid Owner Document Number \(item 0\): check digits do not match/,
		],
		[
			'an owner document of 9 digits',
			{ ownerDocumentNumber: '123456789' },
			/Invalid Owner Document Number \(item 0\): has 9 characters; .*CPF \(11 digits\) or a CNPJ/,
		],
		[
			'a branch country written out',
			{ branchCountry: 'Brazil' },
			/Invalid Branch Country \(item 0\): is not a country code; use two or three letters/,
		],
		[
			'a Brazilian bank code of 4 digits under the three-letter BRA',
			{ branchCountry: 'BRA', bankCode: '0001' },
			/Invalid Bank Code \(item 0\): has 4 digits; a Brazilian bank code has exactly 3 digits/,
		],
		[
			'an unknown account type',
			{ accountType: 'salario' },
			/Invalid Account Type \(item 0\): must be one of conta-corrente, poupanca/,
		],
		['an unknown currency', { currency: 'XYZ' }, /Invalid Currency \(item 0\)/],
		['an empty bank name', { bankName: '  ' }, /Invalid Bank Name \(item 0\): is required/],
		['an empty owner name', { ownerName: '' }, /Invalid Owner Name \(item 0\): is required/],
		[
			'an empty account number outside Brazil',
			{ branchCountry: 'MX', accountNumber: '' },
			/Invalid Account Number \(item 0\): is required/,
		],
		[
			'a wire id with a slash',
			{ wireId: 'abc/def' },
			/Invalid Wire ID \(item 0\): contains .*; an ID uses only letters, digits/,
		],
		['an empty wire id', { wireId: ' ' }, /Invalid Wire ID \(item 0\): is empty/],
	])('refuses %s and sends nothing', async (_name, overrides, message) => {
		const { error, requests } = await op.run(fromItem(overrides));
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(message);
		expect(error.description).toContain('Nothing was sent to FacilitaPay');
	});

	it('lists every broken field at once', async () => {
		const { error, requests } = await op.run(
			fromItem({ bankCode: '1', branchNumber: 'x', ownerName: '' }),
		);
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(
			/Invalid input \(item 0\): 3 fields need fixing: .*Owner Name: .*Bank Code: .*Branch Number: /,
		);
	});

	it('names the item that is wrong among several, and sends no item before it is fixed', async () => {
		const { error, requests } = await op.run({
			parameters: [params(), params({ accountType: 'x' })],
			replies: { [UPDATE]: wire },
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toMatch(/Invalid Account Type \(item 1\)/);
		expect(error.description).toMatch(/Nothing was sent to FacilitaPay for any item/);
	});

	it('is never repeated after a 503 or a closed connection (the wire is retried, money moves)', async () => {
		const failed503 = await op.run({
			parameters: params(),
			replies: { [UPDATE]: [reply(503, 'busy'), wire] },
		});
		expect(failed503.requests).toHaveLength(1);
		expect(failed503.error).toBeDefined();
		const reset = await op.run({
			parameters: params(),
			replies: { [UPDATE]: [RESET, wire] },
		});
		expect(reset.requests).toHaveLength(1);
		expect(reset.error.description).toMatch(/was not repeated/);
		expect(waits).toHaveLength(0);
	});
});
