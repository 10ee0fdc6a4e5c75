import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceOptions, resources } from './actions/resources';
import {
	idempotencyKeyFields,
	moneyOperations,
	previewFields,
	requestOptionsField,
} from './actions/common/requestOptions';
import { router } from './actions/router';
import {
	resumeWebhooks,
	webhook as waitForPaymentWebhook,
} from './actions/transaction/waitForPayment.operation';
import {
	searchInvoices,
	searchPseBanks,
	searchSubjects,
	searchSubscriptions,
	searchTransactions,
} from './methods/listSearch';

export class FacilitaPay implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'FacilitaPay',
		name: 'facilitaPay',
		icon: {
			light: 'file:../../icons/facilitaPay.svg',
			dark: 'file:../../icons/facilitaPay.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Collect and pay out money in Brazil with FacilitaPay (Attrus): PIX, boleto, card checkout, payouts, KYC, subscriptions',
		defaults: { name: 'FacilitaPay' },
		usableAsTool: true,
		// Redacted by n8n 2.x wherever execution data is shown or kept: the webhook secret that
		// Webhook > Enable returns, and card data should the service echo it unmasked, under the
		// names each card operation sends it (card payment: from_credit_card; card subscription:
		// from_card; 3DS challenge: credit_card).
		sensitiveOutputFields: [
			'secret',
			'from_card.number',
			'from_card.card_number',
			'from_card.card_security_code',
			'from_card.security_code',
			'from_credit_card.card_number',
			'from_credit_card.card_security_code',
			'credit_card.card_number',
			'credit_card.card_security_code',
		],
		builderHint: {
			searchHint:
				'FacilitaPay (Attrus), Brazil: register customers (KYC), collect by PIX, boleto or card checkout, pay out, subscriptions. Start payment-event workflows with the FacilitaPay Trigger node. For money-moving operations set an Idempotency Key (e.g. the order number); used as an AI tool, fix the bank account and currency fields and require human review of the tool call.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-facilitapay.facilitaPayTrigger',
					relationHint:
						'Starts a workflow when a payment, payout, subscription or KYC event of this FacilitaPay account arrives',
				},
			],
		},
		inputs: [NodeConnectionTypes.Main],
		// Transaction > Wait for Payment has three outputs (Paid, Not Paid, Timed Out), as n8n's own
		// branching nodes configure theirs; every other operation one.
		outputs: `={{ $parameter.resource === "transaction" && $parameter.operation === "waitForPayment" ? [{ "type": "${NodeConnectionTypes.Main}", "displayName": "Paid" }, { "type": "${NodeConnectionTypes.Main}", "displayName": "Not Paid" }, { "type": "${NodeConnectionTypes.Main}", "displayName": "Timed Out" }] : ["${NodeConnectionTypes.Main}"] }}`,
		// The resume call of Wait for Payment (n8n's /webhook-waiting/<execution>).
		webhooks: resumeWebhooks,
		credentials: [{ name: 'facilitaPayApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: resourceOptions,
				default: 'subject',
			},
			...Object.values(resources).flatMap((resource) => resource.description),
			...idempotencyKeyFields(moneyOperations(resources)),
			...previewFields(moneyOperations(resources)),
			requestOptionsField,
		],
	};

	methods = {
		listSearch: {
			searchInvoices,
			searchPseBanks,
			searchSubjects,
			searchSubscriptions,
			searchTransactions,
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][] | null> {
		return await router.call(this);
	}

	/** The resume call of a waiting Transaction > Wait for Payment (docs/waiting.md). */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await waitForPaymentWebhook.call(this);
	}
}
