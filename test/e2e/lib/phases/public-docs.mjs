// The phase of the operations from FacilitaPay's public documentation and connector: a company, a
// customer's bank account a payout then uses (with the cash-out balance before and after), and a
// local pay-in (5 operations), one workflow. Needs `ctx.subjectId` and `ctx.subjectCpf` from the
// first phase. Uses jest's global `expect`.
import { actionStep, sandboxApi } from '../n8n-e2e.mjs';
import { PAY_IN_ACCOUNT_IDS } from '../../../../sandbox/domain/localPayIns.mjs';
import { ACCOUNTS, expectRunOk, one, ref } from './shared.mjs';
import { bankDetailsParameters } from '../../../fixtures/bankAccounts.js';
import { companyParameters, partnerParameters } from '../../../fixtures/subjects.js';

/* global expect */

/**
 * The operations from FacilitaPay's public documentation and connector (5): a company, a
 * customer's bank account that a payout then uses, the cash-out balance before and after, and a
 * local pay-in (Mexico's dynamic CLABE). Needs `ctx.subjectId` from subjectsAndTransactions.
 * @param {import('./shared.mjs').PhaseOptions} options
 */
export async function publicDocsOperations({ sb, runPhase, ctx, covered }) {
	expect(ctx.subjectId).toBeDefined();
	const { run, log, out } = await runPhase([
		companyStep(),
		...bankAccountSteps(ctx),
		payInStep(ctx.subjectId),
	]);
	expectRunOk(run);
	const phase = { sb, run, log, out, ctx, covered };

	await checkCompany(phase);
	checkBankAccountAndPayout(phase);
	checkPayIn(phase);
}

/** A Brazilian company with two partners, its CNPJ and their CPFs punctuated or bare. */
function companyStep() {
	return actionStep(
		'Create Company',
		companyParameters({
			partners: {
				partner: [
					partnerParameters('60', { documentNumber: '390.533.447-05' }),
					{
						name: 'João Souza',
						documentType: 'cpf',
						documentNumber: '70590071050',
						percentageShare: '40',
						kind: 'person',
					},
				],
			},
			additionalFields: { netMonthlyAverageIncome: '4000', netValue: '10000', companyType: 'ltda' },
		}),
	);
}

/**
 * The subject's bank account registered, then a payout to it between two balance reads.
 * @param {Record<string, any>} ctx
 */
function bankAccountSteps(ctx) {
	return [
		actionStep('Register Bank Account', {
			resource: 'subject',
			operation: 'registerBankAccount',
			subjectId: ctx.subjectId,
			currency: 'BRL',
			ownerName: 'Maria E2E',
			ownerDocumentType: 'cpf',
			ownerDocumentNumber: ctx.subjectCpf,
			branchCountry: 'BRA',
			bankDetails: bankDetailsParameters,
			pixKey: ctx.subjectCpf,
		}),
		actionStep('Balance Before', {
			resource: 'bankAccount',
			operation: 'getBalance',
			bankAccountId: ACCOUNTS.usdCashOut,
		}),
		actionStep('Payout to Registered Account', {
			resource: 'transaction',
			operation: 'createPayout',
			subjectId: ctx.subjectId,
			value: '25.00',
			currency: 'USD',
			exchangeCurrency: 'BRL',
			fromBankAccountId: ACCOUNTS.usdCashOut,
			toBankAccountId: ref('Register Bank Account'),
		}),
		actionStep('Balance After', {
			resource: 'bankAccount',
			operation: 'getBalance',
			bankAccountId: ACCOUNTS.usdCashOut,
		}),
	];
}

/** A Mexican local pay-in; a refusal is an output to check, not a failed run. @param {string} subjectId */
function payInStep(subjectId) {
	return actionStep(
		'Create Local Pay-In',
		{
			resource: 'transaction',
			operation: 'createPayIn',
			subjectId,
			currency: 'MXN',
			exchangeCurrency: 'MXN',
			value: '1500.00',
			fromBankAccountId: PAY_IN_ACCOUNT_IDS.mxnReal,
			toBankAccountId: PAY_IN_ACCOUNT_IDS.mxnCashIn,
		},
		{ onError: 'continueRegularOutput' },
	);
}

/**
 * Company: its own subject, at /subject/companies, the CNPJ and the partners' CPFs bare.
 * @param {import('./shared.mjs').PhaseRun} phase
 */
async function checkCompany({ sb, log, out, covered }) {
	const [company] = out('Create Company');
	expect(company).toMatchObject({ id: expect.any(String), document_number: '16727230000197' });
	expect(one(log, 'POST', /\/api\/v1\/subject\/companies$/).body.company).toMatchObject({
		document_type: 'cnpj',
		document_number: '16727230000197',
		social_name: 'Exemplo Comércio Ltda',
		net_monthly_average_income: '4000.00',
		net_value: '10000.00',
		partners: [
			expect.objectContaining({ document_number: '39053344705', percentage_share: '60' }),
			expect.objectContaining({ document_number: '70590071050', percentage_share: '40' }),
		],
	});
	expect(
		(await sandboxApi('GET', `/subject/people/${company.id}`, undefined, sb.state)).status,
	).toBe(404);
	covered.add('subject.createCompany');
}

/**
 * The customer's bank account, then a payout to it: the balance drops by the payout.
 * @param {import('./shared.mjs').PhaseRun} phase
 */
function checkBankAccountAndPayout({ log, out, ctx, covered }) {
	const [account] = out('Register Bank Account');
	expect(account).toMatchObject({
		id: expect.any(String),
		owner_company: expect.objectContaining({ id: ctx.subjectId }),
	});
	expect(
		one(log, 'POST', new RegExp(`/api/v1/subject/${ctx.subjectId}/bank_accounts$`)).body,
	).toEqual({
		bank_account: {
			currency: 'BRL',
			account_type: 'conta-corrente',
			account_number: '12345-6',
			branch_number: '0001',
			owner_name: 'Maria E2E',
			owner_document_type: 'cpf',
			owner_document_number: ctx.subjectCpf,
			branch_country: 'BRA',
			bank: { code: '031', name: 'Banco Beg S.A.' },
			pix_info: { type: 'CPF', key: ctx.subjectCpf },
		},
	});
	covered.add('subject.registerBankAccount');
	const [payout] = out('Payout to Registered Account');
	expect(payout).toMatchObject({ status: 'identified', payout_method: 'ted' });
	expect(payout.to_bank_account.id).toBe(account.id);
	const [before] = out('Balance Before');
	const [after] = out('Balance After');
	expect(before).toMatchObject({ bank_account_id: ACCOUNTS.usdCashOut, currency: 'USD' });
	expect(after.debit_transactions).toBe(before.debit_transactions + 1);
	expect(Number(before.balance.replace('.', '')) - Number(after.balance.replace('.', ''))).toBe(
		2500,
	);
	expect(
		log.filter(
			(r) => r.method === 'GET' && r.url === `/api/v1/bank_accounts/${ACCOUNTS.usdCashOut}/balance`,
		),
	).toHaveLength(2);
	covered.add('bankAccount.getBalance');
}

/**
 * Local pay-in (MXN): what the node sends is the documented body. The sandbox answers with the
 * dynamic CLABE once its POST /transactions routes pay-ins (sandbox/domain/localPayIns.mjs);
 * until then it refuses the body as a payout's, and the node shows that refusal readably.
 * @param {import('./shared.mjs').PhaseRun} phase
 */
function checkPayIn({ log, out, ctx, covered }) {
	const payIns = log.filter(
		(r) =>
			r.method === 'POST' &&
			/\/api\/v1\/transactions$/.test(r.url) &&
			r.body?.transaction?.currency === 'MXN',
	);
	expect(payIns).toHaveLength(1);
	expect(payIns[0].body).toEqual({
		transaction: {
			subject_id: ctx.subjectId,
			from_bank_account_id: PAY_IN_ACCOUNT_IDS.mxnReal,
			to_bank_account_id: PAY_IN_ACCOUNT_IDS.mxnCashIn,
			currency: 'MXN',
			exchange_currency: 'MXN',
			value: '1500.00',
			meta: { n8n_facilitapay_ref: expect.stringMatching(/^run:/) },
		},
	});
	const [payIn] = out('Create Local Pay-In');
	if (payIns[0].status === 200) {
		expect(payIn).toMatchObject({
			status: 'pending',
			currency: 'MXN',
			dynamic_clabe: expect.stringMatching(/^\d{18}$/),
		});
	} else {
		expect(payIns[0].status).toBe(422);
		expect(payIn.error).toMatch(/FacilitaPay rejected the data \(item 0\)/);
		expect(JSON.stringify(payIn)).toMatch(/from_bank_account_id|From Bank Account/);
	}
	covered.add('transaction.createPayIn');
}
