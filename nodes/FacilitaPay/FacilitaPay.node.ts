import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resourceOptions, resources } from './actions/resources';
import {
	idempotencyKeyFields,
	previewFields,
	requestOptionsField,
} from './actions/common/requestOptions';
import { router } from './actions/router';
import {
	searchInvoices,
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
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
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
			...idempotencyKeyFields,
			...previewFields,
			requestOptionsField,
		],
	};

	methods = {
		listSearch: { searchInvoices, searchSubjects, searchSubscriptions, searchTransactions },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
