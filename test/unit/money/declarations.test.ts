import { moneyOperations } from '../../../nodes/FacilitaPay/actions/common/requestOptions';
import { resources } from '../../../nodes/FacilitaPay/actions/resources';
import { FacilitaPay } from '../../../nodes/FacilitaPay/FacilitaPay.node';

describe('An operation declares once that it moves money; the fields follow from it', () => {
	it('the operations that declare money are the money-moving ones', () => {
		expect(moneyOperations(resources)).toEqual({
			marketplaceAccount: ['requestAuthorization', 'requestBankAccount'],
			subject: ['registerBankAccount', 'uploadDocument'],
			subscription: ['cancel', 'create', 'submitThreedsChallenge'],
			transaction: [
				'cancel',
				'createBoleto',
				'createCardPayment',
				'createCheckout',
				'createDynamicPix',
				'createPayIn',
				'createPayout',
				'createPsePayment',
				'createSpeiPayment',
				'refund',
			],
			wire: ['updateBankAccount'],
		});
	});

	it('each of them shows Idempotency Key (the model fills it as a tool) and Preview Only', () => {
		const properties = new FacilitaPay().description.properties;
		for (const [resource, operations] of Object.entries(moneyOperations(resources))) {
			const shown = (name: string, tool: boolean) =>
				properties.filter(
					(property) =>
						property.name === name &&
						property.displayOptions?.show?.resource?.includes(resource) &&
						operations.every((operation) =>
							property.displayOptions?.show?.operation?.includes(operation),
						) &&
						(property.displayOptions?.show?.['@tool'] === undefined ||
							property.displayOptions.show['@tool']?.includes(tool)),
				);
			expect(shown('idempotencyKey', false).map((property) => property.default)).toEqual(['']);
			expect(String(shown('idempotencyKey', true)[0].default)).toMatch(
				/^=\{\{ \$fromAI\('idempotency_key', /,
			);
			expect(shown('previewOnly', false)).toHaveLength(1);
		}
	});
});
