import type { INodePropertyOptions } from 'n8n-workflow';

import * as bankAccount from './bankAccount/BankAccount.resource';
import * as invoice from './invoice/Invoice.resource';
import * as marketplaceAccount from './marketplaceAccount/MarketplaceAccount.resource';
import type { ResourceModule } from './node.type';
import * as notification from './notification/Notification.resource';
import * as subject from './subject/Subject.resource';
import * as subscription from './subscription/Subscription.resource';
import * as transaction from './transaction/Transaction.resource';
import * as webhook from './webhook/Webhook.resource';
import * as wire from './wire/Wire.resource';

/** Every resource of the node, by its `resource` parameter value. */
export const resources: Record<string, ResourceModule> = {
	bankAccount,
	invoice,
	marketplaceAccount,
	notification,
	subject,
	subscription,
	transaction,
	webhook,
	wire,
};

/** The Resource dropdown, sorted by name. */
export const resourceOptions: INodePropertyOptions[] = [
	{
		name: 'Bank Account',
		value: 'bankAccount',
		description: 'Your own accounts at FacilitaPay: their balance',
	},
	{ name: 'Invoice', value: 'invoice', description: 'Invoices of subscriptions' },
	{
		name: 'Marketplace Account',
		value: 'marketplaceAccount',
		description: 'Authorise and open pay-in bank accounts for subjects (by agreement)',
	},
	{
		name: 'Notification',
		value: 'notification',
		description: 'Webhook notifications sent, failed or delivered',
	},
	{
		name: 'Subject',
		value: 'subject',
		description: 'Customers (people and companies), their KYC documents and bank accounts',
	},
	{
		name: 'Subscription',
		value: 'subscription',
		description: 'Recurring billing by card or automatic PIX',
	},
	{
		name: 'Transaction',
		value: 'transaction',
		description: 'PIX, boleto, card checkout, local pay-ins, payouts, refunds',
	},
	{
		name: 'Webhook',
		value: 'webhook',
		description: 'The account’s single webhook URL: enable or disable',
	},
	{
		name: 'Wire',
		value: 'wire',
		description: 'Correct the bank account of a wire waiting for correction',
	},
];
