import type { INodePropertyOptions } from 'n8n-workflow';

import type { ResourceModule } from './node.type';
import * as subject from './subject/Subject.resource';
import * as transaction from './transaction/Transaction.resource';

/** Every resource of the node, by its `resource` parameter value. */
export const resources: Record<string, ResourceModule> = {
	subject,
	transaction,
};

/** The Resource dropdown, sorted by name. */
export const resourceOptions: INodePropertyOptions[] = [
	{ name: 'Subject', value: 'subject', description: 'Customers (people) and their KYC documents' },
	{ name: 'Transaction', value: 'transaction', description: 'PIX, boleto, card checkout, payouts, refunds' },
];
