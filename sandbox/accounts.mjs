/**
 * Seeded partner bank accounts. The ids are FIXED: tests, examples and docs rely on them.
 */

export const ACCOUNT_IDS = {
	brlPixExclusive: '0b5e7c2a-1f3d-4a8e-9c61-000000000001',
	brlNoPixKey: '0b5e7c2a-1f3d-4a8e-9c61-000000000002',
	usdCashOut: '0b5e7c2a-1f3d-4a8e-9c61-000000000003',
	usdDestination: '0b5e7c2a-1f3d-4a8e-9c61-000000000004',
	eurDestination: '0b5e7c2a-1f3d-4a8e-9c61-000000000005',
	brlCustomer: '0b5e7c2a-1f3d-4a8e-9c61-000000000006',
};

const PARTNER_COMPANY = {
	id: '0b5e7c2a-1f3d-4a8e-9c61-0000000000c0',
	company_name: 'Sandbox Partner Ltda',
	document_number: '16727230000197',
	document_type: 'cnpj',
	fiscal_country: 'BR',
	phone_number: '11999990000',
	social_name: 'Sandbox Partner',
};

const BANKS = {
	itau: {
		id: 'b0000000-0000-4000-8000-000000000341',
		code: '341',
		name: 'Itaú Unibanco S.A.',
		country: 'BR',
		ispb: '60701190',
		swift: 'ITAUBRSP',
	},
	bs2: {
		id: 'b0000000-0000-4000-8000-000000000218',
		code: '218',
		name: 'Banco BS2 S.A.',
		country: 'BR',
		ispb: '71027866',
		swift: 'BSDSBRSP',
	},
	jpm: {
		id: 'b0000000-0000-4000-8000-000000000840',
		code: '021000021',
		name: 'JPMorgan Chase Bank, N.A.',
		country: 'US',
		ispb: null,
		swift: 'CHASUS33',
	},
	deutsche: {
		id: 'b0000000-0000-4000-8000-000000000276',
		code: '10070000',
		name: 'Deutsche Bank AG',
		country: 'DE',
		ispb: null,
		swift: 'DEUTDEFF',
	},
	nubank: {
		id: 'b0000000-0000-4000-8000-000000000260',
		code: '260',
		name: 'Nu Pagamentos S.A.',
		country: 'BR',
		ispb: '18236120',
		swift: null,
	},
};

function account(spec) {
	return {
		id: spec.id,
		currency: spec.currency,
		bank: spec.bank,
		branch_number: spec.branch_number ?? null,
		branch_country: spec.branch_country ?? spec.bank.country,
		account_number: spec.account_number ?? null,
		account_type: spec.account_type ?? null,
		aba: spec.aba ?? null,
		iban: spec.iban ?? null,
		routing_number: spec.routing_number ?? null,
		nickname: spec.nickname,
		owner_name: spec.owner_name ?? PARTNER_COMPANY.social_name,
		owner_document_number: spec.owner_document_number ?? PARTNER_COMPANY.document_number,
		owner_document_type: spec.owner_document_type ?? 'cnpj',
		pix_info: spec.pix_info ?? null,
		intermediary_bank_account: null,
		company: spec.company === undefined ? PARTNER_COMPANY : spec.company,
		internal: spec.internal,
		flow_type: spec.flow_type,
	};
}

/** @returns {{account: object, purpose: string, partner: boolean}[]} */
export function seededAccounts() {
	return [
		{
			partner: true,
			purpose:
				"BRL, partner's exclusive account WITH PIX key (EVP): source of dynamic PIX and automatic PIX; receives static PIX",
			account: account({
				id: ACCOUNT_IDS.brlPixExclusive,
				currency: 'BRL',
				bank: BANKS.bs2,
				branch_number: '0001',
				account_number: '1000001',
				account_type: 'conta-corrente',
				nickname: 'Partner BRL (PIX)',
				internal: true,
				flow_type: 'cash_in',
				pix_info: { type: 'EVP', key: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906' },
			}),
		},
		{
			partner: true,
			purpose: 'BRL, partner account WITHOUT PIX key: dynamic PIX is refused with it; receives TED',
			account: account({
				id: ACCOUNT_IDS.brlNoPixKey,
				currency: 'BRL',
				bank: BANKS.bs2,
				branch_number: '0001',
				account_number: '1000002',
				account_type: 'conta-corrente',
				nickname: 'Partner BRL (TED)',
				internal: true,
				flow_type: 'cash_in',
			}),
		},
		{
			partner: true,
			purpose: "USD, partner's foreign-currency cash-out internal account: source of payouts",
			account: account({
				id: ACCOUNT_IDS.usdCashOut,
				currency: 'USD',
				bank: BANKS.bs2,
				account_number: 'USD-1000003',
				nickname: 'Partner USD cash-out',
				internal: true,
				flow_type: 'cash_out',
			}),
		},
		{
			partner: true,
			purpose:
				'USD, partner destination account (international): pay-ins exchanged to USD are wired here',
			account: account({
				id: ACCOUNT_IDS.usdDestination,
				currency: 'USD',
				bank: BANKS.jpm,
				account_number: '000123456789',
				aba: '021000021',
				routing_number: '021000021',
				account_type: 'conta-corrente',
				nickname: 'Partner USD (JPMorgan)',
				internal: false,
				flow_type: 'cash_in',
				branch_country: 'US',
			}),
		},
		{
			partner: true,
			purpose:
				'EUR, partner destination account (international): pay-ins exchanged to EUR are wired here',
			account: account({
				id: ACCOUNT_IDS.eurDestination,
				currency: 'EUR',
				bank: BANKS.deutsche,
				iban: 'DE89370400440532013000',
				nickname: 'Partner EUR (Deutsche Bank)',
				internal: false,
				flow_type: 'cash_in',
				branch_country: 'DE',
			}),
		},
		{
			partner: false,
			purpose:
				"BRL, a customer's bank account (bank details AND PIX key): payout destination (TED preferred)",
			account: account({
				id: ACCOUNT_IDS.brlCustomer,
				currency: 'BRL',
				bank: BANKS.nubank,
				branch_number: '0001',
				account_number: '77889900',
				account_type: 'conta-corrente',
				nickname: 'Customer BRL',
				owner_name: 'Maria da Silva',
				owner_document_number: '39053344705',
				owner_document_type: 'cpf',
				pix_info: { type: 'CPF', key: '39053344705' },
				company: null,
				internal: false,
				flow_type: 'cash_out',
			}),
		},
	];
}

/**
 * Money already in the partner's accounts when the sandbox starts, as the opening credit of
 * `GET /bank_accounts/:id/balance`: the cash-out account holds enough for payouts.
 */
export const OPENING_BALANCES = {
	[ACCOUNT_IDS.usdCashOut]: '100000.00',
};

export { BANKS, PARTNER_COMPANY };
