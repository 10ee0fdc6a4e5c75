// What the editor shows for Marketplace Account (the description only); the operations run on
// n8n's engine in test/engine/operations/marketplaceAccount/marketplaceAccount.test.mjs.
import { description as requestBankAccountDescription } from '../../../../nodes/FacilitaPay/actions/marketplaceAccount/requestBankAccount.operation';
import { description as requestAuthorizationDescription } from '../../../../nodes/FacilitaPay/actions/marketplaceAccount/requestAuthorization.operation';

describe('Marketplace Account > Request Authorization', () => {
	it('explains in a hint that Yes is allowed only for CPF or CNPJ subjects', () => {
		const options = requestAuthorizationDescription.find((p) => p.name === 'options');
		const flag = (options?.options as Array<{ name: string; hint?: string; default?: unknown }>)[0];
		expect(flag.name).toBe('isSubjectAccountOwner');
		expect(flag.default).toBe(false);
		expect(flag.hint).toMatch(/only for a subject with a CPF or a CNPJ/);
	});
});

describe('Marketplace Account > Request Bank Account', () => {
	it('says that an approved authorisation must exist first', () => {
		const notice = requestBankAccountDescription.find((p) => p.type === 'notice');
		expect(notice?.displayName).toMatch(/An approved account authorisation must exist first/);
	});
});
