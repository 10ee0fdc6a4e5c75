import type {
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ALL_EVENTS, eventOptions } from './events';
import { runTrigger } from './log';
import { webhookMethods as registrationMethods } from './registration';
import { handleDelivery } from './request';

export { attachObjectsOption } from './log';

export class FacilitaPayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'FacilitaPay Trigger',
		name: 'facilitaPayTrigger',
		icon: {
			light: 'file:../../icons/facilitaPay.svg',
			dark: 'file:../../icons/facilitaPay.dark.svg',
		},
		group: ['trigger'],
		version: [1, 1.1, 2],
		defaultVersion: 2,
		// FacilitaPay sends an account's notifications to ONE URL: listening for a test event here
		// would take them from the published workflow, so the panel says how to test instead.
		triggerPanel: {
			header: '',
			executionsHelp: {
				inactive:
					"FacilitaPay sends each account's notifications to one URL. <br /><br /><b>To try it</b>, use credentials of the local sandbox (<code>npm start</code> in this package's repository) or of a second FacilitaPay account, click 'listen', then make a payment there: the event shows up here.<br /><br /><b>To run it</b>, publish the workflow (activate it in n8n 1.x): the trigger registers the production URL and the executions show up in the executions list.",
				active:
					"This workflow is published: it receives this FacilitaPay account's notifications, and 'listen' is refused so that production keeps receiving every event. To try changes, use the local sandbox or a second account's credentials in a copy of the workflow. The executions show up in the <a data-key=\"executions\">executions list</a>. When FacilitaPay's events stop reaching this workflow (sent to another URL, the log unreadable, credentials of another account), a failed execution there says why and what to do, and the workflow's error workflow runs.",
			},
			activationHint:
				'Once the workflow works, publish it: the trigger registers its production URL with FacilitaPay and every event starts it.',
		},
		// Redacted wherever n8n shows or keeps execution data.
		sensitiveOutputFields: ['secret', 'notification.secret'],
		subtitle:
			'={{ ($parameter["events"] || []).includes("*") ? "All Events" : ($parameter["events"] || []).join(", ") }}',
		description:
			'Starts the workflow when FacilitaPay (Attrus) sends a notification: payments, wires, subscriptions, KYC',
		defaults: { name: 'FacilitaPay Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'facilitaPayApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'FacilitaPay sends all events of an account to one published trigger, so use one per account and route its events with a Switch node. Publishing points the events here; testing, taking them back and more are in the <a href="https://github.com/n8n-nodes-facilitapay/n8n-nodes-facilitapay/blob/main/docs/trigger.md#one-url-per-facilitapay-account" target="_blank">trigger docs</a>.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [ALL_EVENTS],
				options: eventOptions,
				description:
					'The notifications that start the workflow. Others are answered with 200 and start nothing.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Accept Unsigned KYC Status Payloads',
						name: 'acceptUnsignedKycStatus',
						type: 'boolean',
						default: false,
						displayOptions: { show: { '@version': [1, 1.1] } },
						description:
							"Whether to accept KYC status payloads. Changes nothing now: such a payload starts the workflow only when FacilitaPay's notification log lists it for this workflow.",
					},
					{
						displayName: 'Attach Current Objects',
						name: 'attachObjects',
						type: 'boolean',
						default: false,
						displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
						description:
							'Whether to add the transaction(s), subscription, invoice, subject or bank account request the event names, as FacilitaPay shows them now (one read each)',
						hint: "Every event is already proven by FacilitaPay's notification log; this only adds data",
					},
					{
						displayName: 'Disable Notifications on Deactivation',
						name: 'disableOnDeactivation',
						type: 'boolean',
						default: false,
						description:
							'Whether deactivating this workflow also turns off every notification of the FacilitaPay account, for all workflows and systems using it, not only this one',
					},
					{
						displayName: 'Drop Duplicates',
						name: 'dropDuplicates',
						type: 'boolean',
						default: false,
						displayOptions: { show: { '@version': [1, 1.1] } },
						description:
							"Whether to drop duplicates. Changes nothing now: every event starts the workflow once, by its record in FacilitaPay's notification log.",
					},
					{
						displayName: 'Fetch Transaction',
						name: 'fetchTransaction',
						type: 'boolean',
						default: true,
						displayOptions: { show: { '@version': [1] } },
						description:
							'Whether to read from FacilitaPay what the event names and add it to the item. Old name of Verify With API, kept for workflows saved with it: it decides only when Verify With API is not set.',
					},
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						displayOptions: { show: { '@version': [1, 1.1] } },
						description:
							"Whether to add the request headers. Kept for workflows saved with it: events now start from FacilitaPay's notification log, not from a request, so there are no headers to add.",
					},
					{
						displayName: 'Verify With API',
						name: 'verifyWithApi',
						type: 'boolean',
						default: true,
						displayOptions: { show: { '@version': [1, 1.1] } },
						description:
							'Whether to add the transaction, subscription, invoice, subject or bank account request the event names, as FacilitaPay shows them now. Version 2 calls this Attach Current Objects.',
						hint: 'Every event is proven by FacilitaPay\'s notification log whatever this says ("verified": true)',
					},
				],
			},
		],
	};

	webhookMethods = registrationMethods;

	/** A delivery: answered at once the same way under any secret; it only prompts the log's reader. */
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleDelivery(this);
	}

	/** The reader of FacilitaPay's notification log: the events that start the workflow. */
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return await runTrigger(this);
	}
}
