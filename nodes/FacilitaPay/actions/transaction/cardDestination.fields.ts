import type { INodeProperties } from 'n8n-workflow';

import { SETTLEMENT_CURRENCIES } from '../../schemas/transaction';
import { bankAccountIdField, currencyField } from '../common/fields';

/** Where a card's money goes: Create Card Payment and Create Card Checkout ask for it alike. */
export const cardDestinationFields: INodeProperties[] = [
	currencyField(
		'exchangeCurrency',
		'Exchange Currency',
		'Currency of the destination account',
		SETTLEMENT_CURRENCIES,
	),
	bankAccountIdField(
		'toBankAccountId',
		'To Bank Account ID',
		'Destination account; its currency must equal the Exchange Currency',
	),
];
