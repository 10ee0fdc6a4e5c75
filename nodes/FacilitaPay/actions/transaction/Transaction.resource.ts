import type { INodeProperties } from 'n8n-workflow';

import * as cancel from './cancel.operation';
import * as createBoleto from './createBoleto.operation';
import * as createCheckout from './createCheckout.operation';
import * as createDynamicPix from './createDynamicPix.operation';
import * as createPayout from './createPayout.operation';
import * as get from './get.operation';
import * as getBoletoPdf from './getBoletoPdf.operation';
import * as refund from './refund.operation';

export { cancel, createBoleto, createCheckout, createDynamicPix, createPayout, get, getBoletoPdf, refund };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transaction'] } },
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				description: 'Cancel a payment that has not been processed',
				action: 'Cancel a transaction',
			},
			{
				name: 'Create Boleto',
				value: 'createBoleto',
				description: 'Issue a boleto with a due date; returns the PDF link, barcode and digital line',
				action: 'Create a boleto',
			},
			{
				name: 'Create Card Checkout',
				value: 'createCheckout',
				description: 'Create a hosted card checkout page for a customer',
				action: 'Create a card checkout',
			},
			{
				name: 'Create Dynamic PIX',
				value: 'createDynamicPix',
				description: 'Create a PIX charge with a fixed value and expiry; returns the PIX code for the QR image',
				action: 'Create a dynamic PIX charge',
			},
			{
				name: 'Create Payout',
				value: 'createPayout',
				description: 'Pay out to a customer’s registered bank account',
				action: 'Create a payout',
			},
			{ name: 'Get', value: 'get', description: 'Get a transaction by ID', action: 'Get a transaction' },
			{
				name: 'Get Boleto PDF',
				value: 'getBoletoPdf',
				description: 'Download the boleto as a PDF file',
				action: 'Get the PDF of a boleto',
			},
			{
				name: 'Refund',
				value: 'refund',
				description: 'Refund a received payment in full',
				action: 'Refund a transaction',
			},
		],
		default: 'createDynamicPix',
	},
	...createDynamicPix.description,
	...createBoleto.description,
	...createPayout.description,
	...createCheckout.description,
	...get.description,
	...getBoletoPdf.description,
	...cancel.description,
	...refund.description,
];
