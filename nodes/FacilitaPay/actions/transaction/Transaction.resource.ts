import type { INodeProperties } from 'n8n-workflow';

import * as cancel from './cancel.operation';
import * as createBoleto from './createBoleto.operation';
import * as createCardPayment from './createCardPayment.operation';
import * as createCheckout from './createCheckout.operation';
import * as createDynamicPix from './createDynamicPix.operation';
import * as createPayIn from './createPayIn.operation';
import * as createPayout from './createPayout.operation';
import * as createPsePayment from './createPsePayment.operation';
import * as createSpeiPayment from './createSpeiPayment.operation';
import * as describeForReview from './describeForReview.operation';
import * as findByIdempotencyKey from './findByIdempotencyKey.operation';
import * as get from './get.operation';
import * as getBoletoPdf from './getBoletoPdf.operation';
import * as getRefund from './getRefund.operation';
import * as refund from './refund.operation';
import * as waitForPayment from './waitForPayment.operation';

export {
	cancel,
	createBoleto,
	createCardPayment,
	createCheckout,
	createDynamicPix,
	createPayIn,
	createPayout,
	createPsePayment,
	createSpeiPayment,
	describeForReview,
	findByIdempotencyKey,
	get,
	getBoletoPdf,
	getRefund,
	refund,
	waitForPayment,
};

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
				action: 'Cancel a payment not yet processed by transaction ID',
			},
			{
				name: 'Create Boleto',
				value: 'createBoleto',
				description:
					'Issue a boleto with a due date; returns the PDF link, barcode and digital line',
				action: 'Create a boleto with a due date for a customer',
			},
			{
				name: 'Create Card Checkout',
				value: 'createCheckout',
				description: 'Create a hosted card checkout page for a customer',
				action: 'Create a card checkout page for a customer to pay',
			},
			{
				name: 'Create Card Payment',
				value: 'createCardPayment',
				description: 'Charge a card once, now; card data is checked first and never shown',
				action: 'Charge a customer card once',
			},
			{
				name: 'Create Dynamic PIX',
				value: 'createDynamicPix',
				description:
					'Create a PIX charge with a fixed value and expiry; returns the PIX code for the QR image',
				action: 'Create a PIX payment request with a QR code for a customer',
			},
			{
				name: 'Create Local Pay-In',
				value: 'createPayIn',
				description:
					'Collect in MXN (dynamic CLABE), CLP, COP (PSE) or a stablecoin; amounts in the currency’s own decimals',
				action: 'Collect a payment in a local currency from a customer',
			},
			{
				name: 'Create Payout',
				value: 'createPayout',
				description: 'Pay out to a customer’s registered bank account',
				action: 'Pay out money to a customer bank account',
			},
			{
				name: 'Create PSE Payment (Colombia)',
				value: 'createPsePayment',
				description:
					'Collect in COP through the customer’s bank with PSE; returns the payment URL, valid 21 minutes',
				action: 'Collect a payment through the customer bank by PSE',
			},
			{
				name: 'Create SPEI Dynamic CLABE (Mexico)',
				value: 'createSpeiPayment',
				description:
					'Collect in MXN by SPEI transfer to a dynamic CLABE, valid 30 days; no source account',
				action: 'Create an account number for a customer to pay by SPEI',
			},
			{
				name: 'Describe for Review',
				value: 'describeForReview',
				description:
					'A payout, PIX charge, refund or cancel in words (amount, recipient, customer, reference) for a person to approve; sends nothing',
				action: 'Describe a payment in words for a person to approve',
			},
			{
				name: 'Find By Idempotency Key',
				value: 'findByIdempotencyKey',
				description:
					'Find the transaction a payment sent with a given Idempotency Key made (did order 9001 pay?)',
				action: 'Find a transaction by its idempotency key',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a transaction by ID',
				action: 'Get a transaction by transaction ID',
			},
			{
				name: 'Get Boleto PDF',
				value: 'getBoletoPdf',
				description: 'Download the boleto as a PDF file',
				action: 'Download the PDF file of a boleto by transaction ID',
			},
			{
				name: 'Get Refund',
				value: 'getRefund',
				description: 'Get the status of a refund of a received payment',
				action: 'Get the status of a refund by transaction ID and refund ID',
			},
			{
				name: 'Refund',
				value: 'refund',
				description: 'Refund a received payment in full',
				action: 'Refund a received payment in full by transaction ID',
			},
			{
				name: 'Wait for Payment',
				value: 'waitForPayment',
				description:
					'Wait (in n8n’s waiting state) until FacilitaPay decides a charge: Paid, Not Paid or Timed Out',
				action: 'Wait for a charge to be paid',
			},
		],
		default: 'createDynamicPix',
	},
	...createDynamicPix.description,
	...createBoleto.description,
	...createPayIn.description,
	...createPayout.description,
	...createCheckout.description,
	...createCardPayment.description,
	...createPsePayment.description,
	...createSpeiPayment.description,
	...describeForReview.description,
	...findByIdempotencyKey.description,
	...get.description,
	...getBoletoPdf.description,
	...cancel.description,
	...refund.description,
	...getRefund.description,
	...waitForPayment.description,
];
