import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest } from '../../../../../nodes/FacilitaPay/transport';
import {
	at,
	CASH_IN,
	lookup,
	outcome,
	paged,
	PIX_ACCOUNT,
	service,
	short,
	SUBJECT,
	titled,
} from './fixtures';

const pixSubscriptionRequest = (fields: IDataObject = {}): ApiRequest => ({
	method: 'POST',
	path: '/subscriptions',
	body: {
		subscription: {
			value: '49.90',
			currency: 'BRL',
			frequency: 'month',
			cycles: 3,
			to_bank_account_id: CASH_IN,
			subject_id: SUBJECT,
			from_bank_account_id: PIX_ACCOUNT,
			...fields,
		},
	},
	retry: 'sendOnce',
});

const cardSubscriptionRequest = (): ApiRequest => {
	const request = pixSubscriptionRequest({ from_bank_account_id: undefined });
	(request.body!.subscription as IDataObject).from_card = {
		card_type: 'credit',
		card_number: '4111111111111111',
		card_expiration_date: '08/2030',
		card_brand: 'visa',
		card_security_code: '737',
		fullname: 'Maria Silva',
	};
	return request;
};

const subscriptionRecord = (fields: IDataObject = {}): IDataObject => ({
	id: 'sub-1',
	status: 'pending',
	subject_id: SUBJECT,
	value: '49.90',
	currency: 'BRL',
	frequency: 'month',
	cycles: 3,
	to_bank_account_id: CASH_IN,
	from_bank_account_id: PIX_ACCOUNT,
	from_card: null,
	from_pix: null,
	inserted_at: at(1),
	...fields,
});

const cardRecord = (fields: IDataObject = {}): IDataObject =>
	subscriptionRecord({
		from_bank_account_id: null,
		from_card: { card_type: 'credit', card_brand: 'visa', last4: '1111' },
		...fields,
	});

describe('Subscription create: the partner’s subscriptions', () => {
	it.each(
		titled<IDataObject>([
			['the same automatic PIX subscription', {}, 'found'],
			['its value written "49.9"', { value: '49.9' }, 'found'],
			['its cycles as text', { cycles: '3' }, 'found'],
			['another value', { value: '59.90' }, 'notFound'],
			['another subject', { subject_id: 'another-subject' }, 'notFound'],
			['another frequency', { frequency: 'week' }, 'notFound'],
			['other cycles', { cycles: 4 }, 'notFound'],
			['another destination account', { to_bank_account_id: 'acc-other' }, 'notFound'],
			['another source account', { from_bank_account_id: 'acc-other' }, 'notFound'],
			['a card instead', { from_bank_account_id: null, from_card: { last4: '1111' } }, 'notFound'],
			['created before the first attempt', { inserted_at: at(-300) }, 'notFound'],
			[
				'only what the spec shows (id, status, subject_id)',
				{
					value: undefined,
					currency: undefined,
					frequency: undefined,
					cycles: undefined,
					to_bank_account_id: undefined,
					from_bank_account_id: undefined,
					inserted_at: undefined,
				},
				'cannotTell',
			],
		]),
	)('a record: %s', async (_name, fields, expected) => {
		const { read, sent } = service({ '/subscriptions': paged([subscriptionRecord(fields)]) });
		expect(outcome(await lookup(pixSubscriptionRequest(), read))).toEqual(short(expected));
		expect(sent[0]).toEqual({ method: 'GET', path: '/subscriptions', retry: 'safe' });
	});

	it.each(
		titled<IDataObject>([
			['the same card (last four digits)', {}, 'found'],
			['another card', { from_card: { last4: '4242' } }, 'notFound'],
			[
				'an automatic PIX subscription',
				{ from_card: null, from_bank_account_id: PIX_ACCOUNT },
				'notFound',
			],
			['a card without its last digits', { from_card: { card_brand: 'visa' } }, 'cannotTell'],
		]),
	)('a card subscription against a record: %s', async (_name, fields, expected) => {
		const { read } = service({ '/subscriptions': paged([cardRecord(fields)]) });
		expect(outcome(await lookup(cardSubscriptionRequest(), read))).toEqual(short(expected));
	});

	it('never writes card data into its reason', async () => {
		const { read } = service({ '/subscriptions': paged([cardRecord({ value: undefined })]) });
		const result = await lookup(cardSubscriptionRequest(), read);
		expect(JSON.stringify(result)).not.toMatch(/4111111111111111|737/);
	});
});
