// The benchmark's workflows: Manual Trigger → Code (the input items) → the node under test, named
// "Node": the FacilitaPay node at a given Max Parallel Requests, or n8n's HTTP Request node sending
// the same request with the FacilitaPay credentials (its predefined credential type).
import { sandboxCredentials } from '../../scripts/n8n-runtime.mjs';
import { actionStep, chainWorkflow, codeStep, validCpf } from '../../test/e2e/lib/n8n-e2e.mjs';
import { ACCOUNTS } from '../../test/integration/lib/harness.mjs';

/** The sandbox credentials every workflow uses (imported by bench/compare/n8n.mjs). */
export const CREDENTIALS = { id: 'facilitapay-sandbox', name: 'FacilitaPay Sandbox' };

/** `count` people with valid CPFs, as the Code node's items. @param {number} count */
export const benchPeople = (count) =>
	Array.from({ length: count }, (_, k) => ({
		documentNumber: validCpf(k + 1),
		socialName: `Bench Person ${k + 1}`,
	}));

/** @param {object[]} rows */
function itemsStep(rows) {
	return codeStep(
		'Items',
		`const rows = ${JSON.stringify(rows)};\nreturn rows.map((json) => ({ json }));`,
	);
}

/**
 * Our node, Continue On Fail on. `concurrency` undefined: the option is not set (the default).
 * @param {Record<string, unknown>} parameters @param {number} [concurrency]
 */
export function ourNode(parameters, concurrency) {
	return actionStep(
		'Node',
		{ ...parameters, ...(concurrency === undefined ? {} : { requestOptions: { concurrency } }) },
		{ onError: 'continueRegularOutput' },
	);
}

/**
 * n8n's HTTP Request node with the FacilitaPay credentials (predefined credential type).
 * @param {string} sandboxUrl @param {string} apiPath @param {string} jsonBodyExpression
 */
export function httpNode(sandboxUrl, apiPath, jsonBodyExpression) {
	return {
		name: 'Node',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		onError: 'continueRegularOutput',
		parameters: {
			method: 'POST',
			url: `${sandboxUrl}/api/v1${apiPath}`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'facilitaPayApi',
			sendBody: true,
			specifyBody: 'json',
			jsonBody: jsonBodyExpression,
			options: {},
		},
	};
}

/**
 * n8n's HTTP Request node as a user adds it today: its default version (4.5 in n8n 2.41.1) and
 * default options (Authentication: None, every item at once), the bearer token typed into a header.
 * The predefined-credential variant above awaits n8n's credential read (a database query and a
 * decryption) once per item inside its item loop, before the item's request leaves: that serial
 * step, not the stand-in or an HTTP agent, held it to ~14-19 requests in flight.
 * @param {string} baseUrl @param {string} apiPath @param {string} jsonBodyExpression @param {string} token
 */
export function httpNodeDefaults(baseUrl, apiPath, jsonBodyExpression, token) {
	return {
		name: 'Node',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.5,
		onError: 'continueRegularOutput',
		parameters: {
			method: 'POST',
			url: `${baseUrl}/api/v1${apiPath}`,
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${token}` }] },
			sendBody: true,
			specifyBody: 'json',
			jsonBody: jsonBodyExpression,
			options: {},
		},
	};
}

/**
 * Manual Trigger → Items (`rows`) → `node`, with `credentials` on every node that takes them.
 * @param {string} id @param {object[]} rows @param {any} node @param {{id: string, name: string}} [credentials]
 */
export function workflow(id, rows, node, credentials = CREDENTIALS) {
	const wf = chainWorkflow({
		id,
		name: `bench ${id}`,
		steps: [itemsStep(rows), node],
		credentials,
	});
	const last = wf.nodes[wf.nodes.length - 1];
	if (!last.credentials) last.credentials = { facilitaPayApi: credentials };
	return wf;
}

export const subjectParameters = {
	resource: 'subject',
	operation: 'create',
	documentType: 'cpf',
	documentNumber: '={{ $json.documentNumber }}',
	socialName: '={{ $json.socialName }}',
	fiscalCountry: 'BR',
	additionalFields: {},
};
export const subjectBody =
	'={{ JSON.stringify({ person: { document_type: "cpf", document_number: $json.documentNumber, social_name: $json.socialName, fiscal_country: "BR" } }) }}';
export const payoutParameters = {
	resource: 'transaction',
	operation: 'createPayout',
	subjectId: '={{ $json.subjectId }}',
	value: '10.00',
	currency: 'USD',
	exchangeCurrency: 'BRL',
	fromBankAccountId: ACCOUNTS.usdCashOut,
	toBankAccountId: ACCOUNTS.brlCustomer,
};
export const payoutBody = `={{ JSON.stringify({ transaction: { subject_id: $json.subjectId, from_bank_account_id: "${ACCOUNTS.usdCashOut}", to_bank_account_id: "${ACCOUNTS.brlCustomer}", currency: "USD", exchange_currency: "BRL", value: "10.00" } }) }}`;

/** Subject → Get Many, Return All, once. */
export const returnAllWorkflow = () =>
	workflow(
		'bench-return-all',
		[{}],
		actionStep(
			'Node',
			{ resource: 'subject', operation: 'getMany', returnAll: true, simplify: true },
			{ executeOnce: true },
		),
	);

/**
 * Username and Password credentials for the sandbox, as `n8n import:credentials` takes them.
 * @param {string} sandboxUrl
 */
export function signInCredentials(sandboxUrl) {
	return sandboxCredentials({
		baseUrl: `${sandboxUrl}/api/v1`,
		id: 'facilitapay-sandbox-login',
		name: 'FacilitaPay Sandbox (sign-in)',
		signIn: true,
	});
}
