import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { clock } from '../../clock';
import {
	automaticPixSubscriptionSchema,
	cardSubscriptionSchema,
	MAX_RETRY_ATTEMPTS,
	SUBSCRIPTION_LABELS,
} from '../../schemas/subscription';
import { CHALLENGE_WINDOW_SIZES, SOFT_DESCRIPTOR_LENGTH } from '../../validation/card';
import { maskedJson, withCardDataHidden } from '../../security/cardData';
import {
	ADDITIONAL_FIELDS,
	bankAccountIdField,
	requiredText,
	subjectIdField,
	valueField,
} from '../common/fields';
import { compact, jsonParameter, validateBody } from '../common/input';
import { cardFromParameters, cardProperties, secretsOf } from './card.fields';
import { sendOnce } from '../common/sendOnce';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { locatorValue } from '../common/locator';
import { inPartnerSubscriptions } from '../../money';

const forCard = { show: { paymentMethod: ['card'] } };
const forAutomaticPix = { show: { paymentMethod: ['automaticPix'] } };

const MCC_OPTIONS = [
	{ name: '4722 – Travel Agencies and Tour Operators', value: '4722' },
	{ name: '5045 – Computers and Computer Software', value: '5045' },
	{ name: '5065 – Electrical Parts and Equipment', value: '5065' },
	{ name: '5947 – Gift, Card, Novelty and Souvenir Shops', value: '5947' },
	{ name: '7372 – Computer Programming and Data Processing', value: '7372' },
	{ name: '8299 – Schools and Educational Services', value: '8299' },
	{ name: '8999 – Professional Services', value: '8999' },
];

const CHALLENGE_WINDOW_NAMES: Record<string, string> = {
	'250x400': '250 x 400',
	'390x400': '390 x 400',
	'500x600': '500 x 600',
	'600x400': '600 x 400',
	fullPage: 'Full Page',
};

const browserText = (
	displayName: string,
	name: string,
	description: string,
	placeholder: string,
): INodeProperties => ({
	...requiredText(name, displayName, description, placeholder),
	displayOptions: forCard,
});

/** `from_card.threeds`: what the customer's browser reported, for 3-D Secure. */
const threedsProperties: INodeProperties[] = [
	{
		displayName:
			'The 3-D Secure fields below describe the customer’s browser. Collect them on your checkout page and map them here.',
		name: 'threedsNotice',
		type: 'notice',
		default: '',
		displayOptions: forCard,
	},
	browserText(
		'Browser Accept Header',
		'httpAcceptBrowserValue',
		'The Accept header the customer’s browser sends',
		'e.g. text/html,application/xhtml+xml',
	),
	browserText(
		'Browser Color Depth',
		'httpBrowserColorDepth',
		'Color depth of the screen in bits (screen.colorDepth)',
		'e.g. 24',
	),
	{
		displayName: 'Browser Java Enabled',
		name: 'httpBrowserJavaEnabled',
		type: 'boolean',
		default: false,
		description:
			'Whether the customer’s browser has Java enabled (sent as the text "true" or "false")',
		displayOptions: forCard,
	},
	{
		displayName: 'Browser JavaScript Enabled',
		name: 'httpBrowserJavaScriptEnabled',
		type: 'boolean',
		default: true,
		description:
			'Whether the customer’s browser has JavaScript enabled (sent as the text "true" or "false")',
		displayOptions: forCard,
	},
	browserText(
		'Browser Language',
		'httpBrowserLanguage',
		'Language tag of the browser (navigator.language)',
		'e.g. pt-BR',
	),
	browserText(
		'Browser Screen Height',
		'httpBrowserScreenHeight',
		'Screen height in pixels',
		'e.g. 1080',
	),
	browserText(
		'Browser Screen Width',
		'httpBrowserScreenWidth',
		'Screen width in pixels',
		'e.g. 1920',
	),
	browserText(
		'Browser Time Difference',
		'httpBrowserTimeDifference',
		'Minutes between UTC and the browser’s local time (new Date().getTimezoneOffset()); 180 for Brasília',
		'e.g. 180',
	),
	browserText(
		'Browser User Agent',
		'userAgentBrowserValue',
		'The exact User-Agent header of the customer’s browser',
		'e.g. Mozilla/5.0 (Windows NT 10.0; Win64; x64)',
	),
	{
		displayName: 'Challenge Window Size',
		name: 'challengeWindowSize',
		type: 'options',
		required: true,
		options: CHALLENGE_WINDOW_SIZES.map((value) => ({
			name: CHALLENGE_WINDOW_NAMES[value],
			value,
		})),
		default: 'fullPage',
		description: 'Size of the window in which the bank shows the 3-D Secure challenge',
		displayOptions: forCard,
	},
	browserText(
		'Customer IP Address',
		'ipAddress',
		'IP address of the customer’s device',
		'e.g. 203.0.113.7',
	),
];

const properties: INodeProperties[] = [
	{
		displayName: 'Payment Method',
		name: 'paymentMethod',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Automatic PIX',
				value: 'automaticPix',
				description:
					'The customer authorises the recurrence once by scanning a QR code in their bank app',
			},
			{ name: 'Card', value: 'card', description: 'Charge a credit or debit card each cycle' },
		],
		default: 'card',
	},
	subjectIdField('ID of the customer (person or company) who pays the subscription'),
	valueField('Amount of the subscription in BRL, with exactly two decimals'),
	{
		displayName: 'Frequency',
		name: 'frequency',
		type: 'options',
		required: true,
		options: [
			{ name: 'Day', value: 'day', description: 'Not available for automatic PIX' },
			{ name: 'Month', value: 'month' },
			{ name: 'Quarter', value: 'quarter' },
			{ name: 'Semester', value: 'semester' },
			{ name: 'Week', value: 'week' },
			{ name: 'Year', value: 'year' },
		],
		default: 'month',
		description: 'How often an invoice is issued and charged',
	},
	{
		displayName: 'Cycles',
		name: 'cycles',
		type: 'number',
		required: true,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: 12,
		description: 'Number of invoices to charge; the subscription completes when all are paid',
	},
	bankAccountIdField(
		'toBankAccountId',
		'To Bank Account ID',
		'Your internal or external international bank account that receives the funds',
	),
	{
		...bankAccountIdField(
			'fromBankAccountId',
			'From Bank Account ID',
			'Your exclusive BRL bank account at FacilitaPay that collects the automatic PIX debits',
		),
		displayOptions: forAutomaticPix,
	},
	...cardProperties.map((property) => ({ ...property, displayOptions: forCard })),
	{
		displayName: 'Card Type',
		name: 'cardType',
		type: 'options',
		required: true,
		options: [
			{ name: 'Credit', value: 'credit' },
			{ name: 'Debit', value: 'debit' },
		],
		default: 'credit',
		displayOptions: forCard,
	},
	{
		displayName: 'Device Fingerprint Reference ID',
		name: 'dfReferenceId',
		type: 'string',
		required: true,
		default: '',
		description: 'Session ID you received when device data collection finished (df_reference_id)',
		displayOptions: forCard,
	},
	{
		displayName: 'Merchant Category Code',
		name: 'mcc',
		type: 'options',
		required: true,
		options: MCC_OPTIONS,
		default: '8999',
		description: 'Category of what you sell (MCC), one of the codes the service accepts',
		displayOptions: forCard,
	},
	...threedsProperties,
	{
		...ADDITIONAL_FIELDS,
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				placeholder: 'e.g. Premium plan',
				description: 'Short description of the subscription',
			},
			{
				displayName: 'Free Days',
				name: 'freeDays',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				description:
					'Days without charge at the start; the whole schedule moves by the same number of days',
				hint: 'Free days delay the first charge AND shift every later charge by the same number of days (e.g. start 1 March, 10 free days, monthly: 11 March, 11 April…)',
			},
			{
				displayName: 'Meta (JSON)',
				name: 'meta',
				type: 'json',
				default: '{}',
				description: 'Your own data kept with the subscription, as a JSON object',
			},
			{
				displayName: 'Soft Descriptor',
				name: 'softDescriptor',
				type: 'string',
				default: '',
				placeholder: 'e.g. MYSHOP PLAN',
				description:
					'Your text on the customer’s card statement, after the service’s prefix and an asterisk',
				hint: `Only the first ${SOFT_DESCRIPTOR_LENGTH} characters are used: longer text is cut to ${SOFT_DESCRIPTOR_LENGTH} before sending`,
				displayOptions: { show: { '/paymentMethod': ['card'] } },
			},
			{
				displayName: 'Total Retry Attempts',
				name: 'totalRetryAttempts',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: MAX_RETRY_ATTEMPTS, numberPrecision: 0 },
				default: 0,
				description:
					'Retries after a failed charge (0 to 3), for every invoice but the first. When they are used up the subscription is cancelled.',
			},
			{
				displayName: 'Trial Days',
				name: 'trialDays',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				description:
					'Days of trial before the first charge; later charges keep the original schedule',
				hint: 'Trial days delay only the first charge; later charges still fall on the original dates (e.g. start 1 March, 10 trial days, monthly: 11 March, then 1 April, 1 May…)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['subscription'], operation: ['create'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const method = this.getNodeParameter('paymentMethod', i) as string;
	const additional = this.getNodeParameter('additionalFields', i, {}) as IDataObject;
	const common: IDataObject = {
		value: this.getNodeParameter('value', i),
		currency: 'BRL',
		frequency: this.getNodeParameter('frequency', i),
		cycles: this.getNodeParameter('cycles', i),
		...compact({
			trial_days: additional.trialDays,
			free_days: additional.freeDays,
			total_retry_attempts: additional.totalRetryAttempts,
			description: additional.description,
		}),
		to_bank_account_id: this.getNodeParameter('toBankAccountId', i),
		subject_id: locatorValue(this, 'subjectId', i),
	};
	const meta = jsonParameter(this, i, 'Meta (JSON)', additional.meta);
	if (
		meta !== undefined &&
		!(typeof meta === 'object' && meta !== null && Object.keys(meta).length === 0)
	) {
		common.meta = meta as IDataObject;
	}

	if (method === 'automaticPix') {
		const subscription = validateBody(
			this,
			i,
			automaticPixSubscriptionSchema,
			{ ...common, from_bank_account_id: this.getNodeParameter('fromBankAccountId', i) },
			SUBSCRIPTION_LABELS,
		);
		return sendOnce(
			i,
			'POST',
			'/subscriptions',
			{ subscription: compact(subscription as IDataObject) },
			(data) => [{ json: maskedJson(data) }],
		);
	}

	const card = cardFromParameters(this, i);
	const secrets = secretsOf(card);
	return await withCardDataHidden(this, secrets, async () => {
		const subscription = validateBody(
			this,
			i,
			cardSubscriptionSchema(clock.now(), { timeZone: this.getTimezone() }),
			{
				...common,
				from_card: {
					card_type: this.getNodeParameter('cardType', i),
					...card,
					meta: {
						df_reference_id: this.getNodeParameter('dfReferenceId', i, ''),
						mcc: this.getNodeParameter('mcc', i),
					},
					threeds: {
						softDescriptor: additional.softDescriptor,
						httpAcceptBrowserValue: this.getNodeParameter('httpAcceptBrowserValue', i, ''),
						httpBrowserLanguage: this.getNodeParameter('httpBrowserLanguage', i, ''),
						httpBrowserJavaEnabled: this.getNodeParameter('httpBrowserJavaEnabled', i, false),
						httpBrowserJavaScriptEnabled: this.getNodeParameter(
							'httpBrowserJavaScriptEnabled',
							i,
							true,
						),
						httpBrowserColorDepth: this.getNodeParameter('httpBrowserColorDepth', i, ''),
						httpBrowserScreenHeight: this.getNodeParameter('httpBrowserScreenHeight', i, ''),
						httpBrowserScreenWidth: this.getNodeParameter('httpBrowserScreenWidth', i, ''),
						httpBrowserTimeDifference: this.getNodeParameter('httpBrowserTimeDifference', i, ''),
						userAgentBrowserValue: this.getNodeParameter('userAgentBrowserValue', i, ''),
						ipAddress: this.getNodeParameter('ipAddress', i, ''),
						challengeWindowSize: this.getNodeParameter('challengeWindowSize', i),
					},
				},
			},
			SUBSCRIPTION_LABELS,
		);
		const body = compact(subscription as IDataObject);
		body.from_card = {
			...subscription.from_card,
			threeds: compact(subscription.from_card.threeds),
		};
		return {
			...sendOnce(i, 'POST', '/subscriptions', { subscription: body }, (data) => [
				{ json: maskedJson(data, secrets) },
			]),
			cardSecrets: secrets,
		};
	});
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = { record: inPartnerSubscriptions };
