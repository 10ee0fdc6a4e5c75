// What the editor shows for Wire > Update Bank Account (the description only); the operation runs
// on n8n's engine in test/engine/operations/wire/wire.test.mjs.
import { description } from '../../../../nodes/FacilitaPay/actions/wire/updateBankAccount.operation';
import { description as resourceDescription } from '../../../../nodes/FacilitaPay/actions/wire/Wire.resource';

describe('Wire > Update Bank Account', () => {
	it('explains the four error codes and the field each asks to correct', () => {
		const notice = description.find((p) => p.type === 'notice')?.displayName ?? '';
		expect(notice).toMatch(/AC03 → Branch Number or Account Number/);
		expect(notice).toMatch(/AC14 → Account Type/);
		expect(notice).toMatch(/CH11 → Owner Document Number/);
		expect(notice).toMatch(/AG03 → the account rejected the payment, so enter another account/);
		const operation = (resourceDescription[0].options as Array<{ description: string }>)[0]
			.description;
		expect(operation).toMatch(/AC03.*AC14.*CH11.*AG03/);
	});
});
