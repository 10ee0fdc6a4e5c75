// The example workflows of examples/*.json in a real n8n 2.x against the sandbox, imported as-is
// (same ids, names, parameters and credential reference "facilitapay-sandbox", which
// test/e2e/global-setup.mjs creates pointing at the in-process sandbox). See README.md, "Example workflows".
//
// - Onboard a customer: the workflow is published and its production form is submitted the way a
//   browser does it (multipart POST to /form/<path> with a PDF), then the completion page is read
//   (the PIX code, and the QR image's data URI scanned back to exactly that code by
//   test/e2e/lib/qr.mjs) and resumed like the page's own script does. No substitute trigger: the
//   Form Trigger itself turns the submission into the item (fields + binary) the FacilitaPay nodes
//   use.
// - Payment alerts: the workflow is published (the trigger registers n8n's URL), the sandbox is
//   driven through its control endpoints to send real payment/wire/KYC notifications.
// - Catch up on missed events: a notification fails delivery 6 times (a refusing URL + the virtual
//   clock), then `n8n execute` runs the workflow from its "Run Now" manual trigger (the CLI cannot
//   start a Schedule Trigger), which lists and marks it.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
	CLI_TIMEOUT,
	activateWorkflow,
	describeE2e,
	importWorkflows,
	listExecutions,
	nodeBinary,
	nodeOutput,
	requirePieces,
	runWorkflow,
	sandboxApi,
	sandboxControl,
	sandboxMark,
	sandboxRequests,
	sharedState,
	validCpf,
	waitFor,
} from './lib/n8n-e2e.mjs';
import { decodeQrSvg, imgDataUris } from './lib/qr.mjs';
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';

const EXAMPLES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples');
const ACCOUNTS = ACCOUNT_IDS;
/** A small but real PDF (the node and the sandbox check the file's magic bytes). */
const PDF = Buffer.from(
	'%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** @param {string} file */
function loadExample(file) {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'));
}

/** @param {any} workflow @param {string} type */
function nodeOfType(workflow, type) {
	const node = workflow.nodes.find((/** @type {any} */ n) => n.type === type);
	if (!node) throw new Error(`${workflow.name} has no ${type} node`);
	return node;
}

/**
 * Executions of one workflow (newest first) that were not in `known`, once at least `count` of
 * them exist and none is still running.
 * @param {string} workflowId @param {any} state
 * @param {{count?: number, known?: Set<string>, what?: string}} [options]
 */
async function newExecutions(
	workflowId,
	state,
	{ count = 1, known = new Set(), what = `executions of ${workflowId}` } = {},
) {
	return waitFor(
		async () => {
			const executions = (await listExecutions({ workflowId, limit: 100 }, state)).filter(
				(e) => !known.has(String(e.id)),
			);
			const settled = executions.every((e) => e.status !== 'running' && e.status !== 'new');
			return executions.length >= count && settled ? executions : null;
		},
		{ what, timeoutMs: 60_000 },
	);
}

/** Ids of the executions a workflow has so far. @param {string} workflowId @param {any} state */
async function knownExecutions(workflowId, state) {
	return new Set(
		(await listExecutions({ workflowId, limit: 100, includeData: false }, state)).map((e) =>
			String(e.id),
		),
	);
}

/** A loopback port nothing listens on: connections to it are refused. */
async function refusingPort() {
	const server = net.createServer();
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const { port } = /** @type {net.AddressInfo} */ (server.address());
	await new Promise((resolve) => server.close(() => resolve(undefined)));
	return port;
}

/** Publishes the workflow and waits for the FacilitaPay Trigger's POST /enable_webhooks. */
async function activateTrigger(workflowId, state) {
	const mark = await sandboxMark(state);
	await activateWorkflow(workflowId, state);
	await waitFor(
		async () =>
			(
				await sandboxRequests(
					{ after: mark, method: 'POST', pathPrefix: '/enable_webhooks' },
					state,
				)
			).length > 0,
		{ what: 'the FacilitaPay Trigger to register its URL (POST /enable_webhooks)' },
	);
}

/** Deactivates (unpublishes) a workflow on the shared server; best effort. */
async function deactivate(workflowId, state) {
	for (const route of [
		`/workflows/${workflowId}/unpublish`,
		`/workflows/${workflowId}/deactivate`,
	]) {
		const response = await fetch(`${state.n8nUrl}/api/v1${route}`, {
			method: 'POST',
			headers: { 'X-N8N-API-KEY': state.apiKey, 'content-type': 'application/json' },
			body: '{}',
		}).catch(() => null);
		if (response?.ok) return;
	}
}

/**
 * The example's PIX expiry is n8n's `$now` + 1 hour, checked by the sandbox against ITS clock. The
 * shared sandbox's clock starts at real time, frozen, and only moves forward (the catch-up test moves
 * it 7 hours): if a test that ran earlier left it more than 50 minutes ahead of real time, the only
 * way back is POST /_sandbox/reset (which also empties the sandbox; every test makes its own data).
 * @param {any} state
 */
async function clockNotAhead(state) {
	const { now } = (await sandboxControl('GET', '/clock', undefined, state)).data ?? {};
	if (now && Date.parse(now) > Date.now() + 50 * 60_000) {
		console.warn(
			`examples.test.mjs: the sandbox clock (${now}) is ahead of real time; resetting the sandbox`,
		);
		await sandboxControl('POST', '/reset', undefined, state);
	}
}

/** A person with everything card checkouts need (e-mail, phone, full address). */
async function createCustomer(state, seed, name) {
	const created = await sandboxApi(
		'POST',
		'/subject/people',
		{
			person: {
				document_type: 'cpf',
				document_number: validCpf(seed),
				social_name: name,
				fiscal_country: 'BR',
				email: `customer-${seed}@example.com`,
				phone_country_code: '55',
				phone_area_code: '11',
				phone_number: '987654321',
				address_street: 'Rua Augusta',
				address_number: '100',
				address_neighborhood: 'Consolação',
				address_postal_code: '01305000',
				address_city: 'São Paulo',
				address_state: 'SP',
				address_country: 'BR',
			},
		},
		state,
	);
	expect(created.status).toBe(200);
	return created.json.data;
}

/** @param {{status: number, json: any, text: string}} answer */
function dataOf(answer) {
	if (answer.status >= 300)
		throw new Error(`sandbox answered ${answer.status}: ${answer.text.slice(0, 300)}`);
	return answer.json.data;
}

const activated = new Set();

describeE2e('Example workflows (examples/*.json) in a real n8n 2.x', () => {
	afterAll(async () => {
		const state = sharedState();
		for (const id of activated) await deactivate(id, state);
	});

	test(
		'Onboard a customer: the published form creates the subject, uploads the document, creates a dynamic PIX and shows its code and QR image',
		async () => {
			const state = sharedState();
			requirePieces(state, ['sandbox', 'node']);
			await clockNotAhead(state);
			const workflow = loadExample('onboard-customer.json');
			const formTrigger = nodeOfType(workflow, 'n8n-nodes-base.formTrigger');
			const formPath = formTrigger.parameters.options.path;
			await importWorkflows(workflow, state);
			const mark = await sandboxMark(state);
			await activateWorkflow(workflow.id, state);
			activated.add(workflow.id);
			const formUrl = `${state.n8nUrl}/form/${formPath}`;
			const page = await waitFor(
				async () => {
					const response = await fetch(formUrl);
					return response.status === 200 ? response.text() : null;
				},
				{ what: `the production form at ${formUrl}` },
			);
			expect(page).toContain('Proof of address');

			// What a browser posts: field-<index> per form element, in the Form Trigger's order.
			const cpf = validCpf(Date.now() % 1_000_000);
			const answers = {
				'Full name': 'Maria Onboarding',
				CPF: `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`,
				'E-mail': 'maria.onboarding@example.com',
				Street: 'Avenida Paulista',
				Number: '1578',
				Neighborhood: 'Bela Vista',
				'Postal code': '01310-200',
				City: 'São Paulo',
				State: 'SP',
				'Bank code': '260',
				Branch: '0001',
				'Account number': '12345-6',
				'PIX key': 'maria.onboarding@example.com',
			};
			const form = new FormData();
			formTrigger.parameters.formFields.values.forEach(
				(/** @type {any} */ field, /** @type {number} */ index) => {
					if (field.fieldType === 'file') {
						form.append(
							`field-${index}`,
							new Blob([PDF], { type: 'application/pdf' }),
							'proof-of-address.pdf',
						);
					} else {
						const value = answers[/** @type {keyof typeof answers} */ (field.fieldLabel)];
						if (value === undefined)
							throw new Error(`The test has no answer for form field "${field.fieldLabel}"`);
						form.append(`field-${index}`, value);
					}
				},
			);
			const known = await knownExecutions(workflow.id, state);
			const submitted = await fetch(formUrl, { method: 'POST', body: form, redirect: 'manual' });
			expect(submitted.status).toBe(200);
			const { formWaitingUrl } = await submitted.json();
			expect(formWaitingUrl).toMatch(/\/form-waiting\//);

			// n8n answers the POST at once (a multi-page form) and runs the workflow up to the
			// completion page, where the execution waits for the browser.
			const [waiting] = await newExecutions(workflow.id, state, {
				known,
				what: 'the onboarding execution',
			});
			expect(waiting.status).toBe('waiting');

			// The sandbox received the subject, the document and the dynamic PIX, in that order.
			const received = await sandboxRequests({ after: mark }, state);
			const calls = received.map((r) => r.route);
			const subjectCall = received.find(
				(r) => r.method === 'POST' && r.url === '/api/v1/subject/people',
			);
			expect(subjectCall?.body).toEqual({
				person: {
					document_type: 'cpf',
					document_number: cpf,
					social_name: 'Maria Onboarding',
					fiscal_country: 'BR',
					email: 'maria.onboarding@example.com',
					address_street: 'Avenida Paulista',
					address_number: '1578',
					address_neighborhood: 'Bela Vista',
					address_postal_code: '01310200',
					address_city: 'São Paulo',
					address_state: 'SP',
					address_country: 'BR',
				},
			});
			const [registered] = /** @type {any[]} */ (nodeOutput(waiting, 'Create or Update Customer'));
			const subject = dataOf(
				await sandboxApi('GET', `/subject/people/${registered.id}`, undefined, state),
			);
			expect(subject).toMatchObject({
				document_number: cpf,
				social_name: 'Maria Onboarding',
				address_state: 'SP',
			});
			const documentCall = received.find(
				(r) => r.method === 'POST' && r.url === `/api/v1/subject/${subject.id}/documents`,
			);
			expect(documentCall?.body?.document).toMatchObject({
				labels: ['address-proof'],
				file_type: 'application/pdf',
				file_name: 'proof-of-address.pdf',
			});
			expect(documentCall?.status).toBe(200);
			const pixCall = received.find((r) => r.method === 'POST' && r.url === '/api/v1/transactions');
			expect(pixCall?.body?.transaction).toMatchObject({
				subject_id: subject.id,
				from_bank_account_id: ACCOUNTS.brlPixExclusive,
				to_bank_account_id: ACCOUNTS.brlNoPixKey,
				currency: 'BRL',
				exchange_currency: 'BRL',
				value: '49.90',
				use_dynamic_pix: true,
			});
			expect(pixCall?.body?.transaction?.dynamic_pix_expires_at).toMatch(
				/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/,
			);
			// The customer's bank account, where payouts to them go (live docs).
			const accountCall = received.find(
				(r) => r.method === 'POST' && r.url === `/api/v1/subject/${subject.id}/bank_accounts`,
			);
			expect(accountCall?.body).toEqual({
				bank_account: {
					currency: 'BRL',
					account_type: 'conta-corrente',
					account_number: '12345-6',
					branch_number: '0001',
					owner_name: 'Maria Onboarding',
					owner_document_type: 'cpf',
					owner_document_number: cpf,
					branch_country: 'BRA',
					bank: { code: '260' },
					pix_info: { type: 'EMAIL', key: 'maria.onboarding@example.com' },
				},
			});
			expect(accountCall?.status).toBe(200);
			const [account] = /** @type {any[]} */ (nodeOutput(waiting, 'Register Bank Account'));
			expect(account).toMatchObject({
				id: expect.stringMatching(/^[0-9a-f-]{36}$/),
				currency: 'BRL',
				owner_company: expect.objectContaining({ id: subject.id }),
			});
			expect(calls).toEqual([
				'POST /api/v1/subject/people',
				'POST /api/v1/subject/:id/documents',
				'POST /api/v1/subject/:id/bank_accounts',
				'POST /api/v1/transactions',
			]);

			// The form's last page shows the PIX copy-and-paste code and its QR code image.
			const [pix] = /** @type {any[]} */ (nodeOutput(waiting, 'Create PIX Charge'));
			expect(pix.pix_code).toMatch(/^000201/);
			expect(pix.pix_code_valid).toBe(true);
			expect(nodeBinary(waiting, 'Create PIX Charge')?.qrCode).toMatchObject({
				mimeType: 'image/svg+xml',
				fileName: `pix-${pix.id}.svg`,
			});
			const [encoded] = /** @type {any[]} */ (nodeOutput(waiting, 'QR Code as Base64'));
			expect(encoded).toMatchObject({ id: pix.id, pix_code: pix.pix_code });
			const completion = await fetch(formWaitingUrl);
			expect(completion.status).toBe(200);
			const html = await completion.text();
			expect(html).toContain('Thank you, Maria Onboarding!');
			expect(html).toContain(pix.pix_code);
			// One <img> whose data URI is the SVG the node drew, and a scanner reads exactly pix_code from it.
			expect(html).toMatch(/<img\b[^>]*\ssrc="data:image\/svg\+xml;base64,/);
			const images = imgDataUris(html);
			expect(images.map((image) => image.mimeType)).toEqual(['image/svg+xml']);
			expect(images[0].base64).toBe(encoded.qrCodeBase64);
			const svg = images[0].bytes.toString('utf8');
			expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
			const scanned = decodeQrSvg(svg);
			expect(scanned).not.toBeNull();
			expect(scanned?.text).toBe(pix.pix_code);
			expect(scanned?.bytes.equals(Buffer.from(pix.pix_code, 'utf8'))).toBe(true);
			expect(scanned?.picture.quietZone).toEqual({ top: 4, bottom: 4, left: 4, right: 4 });
			expect(scanned?.picture.moduleSize).toBe(8);
			expect(scanned?.picture.symbolSize).toBe(17 + 4 * /** @type {number} */ (scanned?.version));

			// The completion page's own script POSTs back to finish the execution.
			const resumed = await fetch(formWaitingUrl, { method: 'POST' });
			expect(resumed.status).toBeLessThan(400);
			const finished = await waitFor(
				async () => {
					const executions = await listExecutions({ workflowId: workflow.id }, state);
					const execution = executions.find((e) => e.id === waiting.id);
					return execution?.status === 'success' ? execution : null;
				},
				{ what: 'the onboarding execution to finish' },
			);
			const last = /** @type {any[]} */ (nodeOutput(finished, 'Show PIX Code'));
			expect(last).toEqual([expect.objectContaining({ id: pix.id, pix_code: pix.pix_code })]);
			expect(last[0].pix_code).toMatch(/^000201/);
		},
		CLI_TIMEOUT,
	);

	test(
		'Payment alerts: approval, failure, expiry, wire correction (AC14) and reproval each start one execution with a readable Alert',
		async () => {
			const state = sharedState();
			requirePieces(state, ['sandbox', 'trigger']);
			const workflow = loadExample('payment-alerts.json');
			await importWorkflows(workflow, state);
			const known = await knownExecutions(workflow.id, state);
			await activateTrigger(workflow.id, state);
			activated.add(workflow.id);
			const seed = (Date.now() % 1_000_000) + 7;
			const customer = await createCustomer(state, seed, 'Joana Alerts');

			// Card checkout: one declined attempt (payment_failed), then an approved one (payment_approved).
			const checkout = dataOf(
				await sandboxApi(
					'POST',
					'/transactions/checkout',
					{
						subject_id: customer.id,
						value: '150.00',
						currency: 'BRL',
						exchange_currency: 'BRL',
						to_bank_account_id: ACCOUNTS.brlNoPixKey,
					},
					state,
				),
			);
			const declined = (
				await sandboxControl('POST', `/transactions/${checkout.id}/pay`, { success: false }, state)
			).data;
			const approved = (
				await sandboxControl('POST', `/transactions/${checkout.id}/pay`, { success: true }, state)
			).data;
			// A dynamic PIX nobody pays (payment_expired).
			const pixBody = (/** @type {string} */ value) => ({
				transaction: {
					subject_id: customer.id,
					from_bank_account_id: ACCOUNTS.brlPixExclusive,
					to_bank_account_id: ACCOUNTS.brlCustomer,
					currency: 'BRL',
					exchange_currency: 'BRL',
					value,
					use_dynamic_pix: true,
				},
			});
			const unpaid = dataOf(await sandboxApi('POST', '/transactions', pixBody('80.00'), state));
			await sandboxControl('POST', `/transactions/${unpaid.id}/pay`, { success: false }, state);
			// A paid dynamic PIX to the customer's own account, wired with error AC14 (wire_waiting_correction).
			const paid = dataOf(await sandboxApi('POST', '/transactions', pixBody('120.00'), state));
			await sandboxControl('POST', `/transactions/${paid.id}/pay`, { success: true }, state);
			const settlement = (
				await sandboxControl('POST', '/settlement/run', { wire_error_code: 'AC14' }, state)
			).data;
			const wire = settlement.wires.find((/** @type {any} */ w) =>
				w.transaction_ids.includes(paid.id),
			);
			expect(wire).toMatchObject({ status: 'waiting_correction', error_code: 'AC14' });
			// The back office reproves the customer (subject_reproved).
			await sandboxControl(
				'POST',
				`/subjects/${customer.id}/reprove`,
				{ items: ['proof_of_address_rejected', 'selfie_mismatch'], reason: 'documents_rejected' },
				state,
			);
			// The other correction codes, as the service would send them (synthetic events).
			const otherCodes = {
				AC03: 'Branch Number or Account Number',
				CH11: 'Owner Document Number',
				AG03: 'enter another account',
			};
			/** @type {Record<string, string>} */
			const otherWires = {};
			for (const code of Object.keys(otherCodes)) {
				otherWires[code] = randomUUID();
				await sandboxControl(
					'POST',
					'/events',
					{
						type: 'wire_waiting_correction',
						error_code: code,
						error_description: `sandbox ${code}`,
						bank_account_owner_id: customer.id,
						bank_account_id: ACCOUNTS.brlCustomer,
						transaction_ids: [paid.id],
						wire_id: otherWires[code],
					},
					state,
				);
			}
			await sandboxControl('POST', '/deliveries/wait', undefined, state);

			/** @type {Record<string, (event: any) => boolean>} */
			const mine = {
				payment_failed: (e) => e.transaction_id === declined.id,
				payment_approved: (e) => e.transaction_id === approved.id,
				payment_expired: (e) => e.transaction_id === unpaid.id,
				wire_waiting_correction: (e) => e.wire_id === wire.id,
				subject_reproved: (e) => e.subject_id === customer.id,
			};
			const ofEvent = (/** @type {any[]} */ executions, /** @type {string} */ type) =>
				executions.filter((execution) => {
					const [event] = /** @type {any[]} */ (nodeOutput(execution, 'FacilitaPay Trigger') ?? []);
					return event?.type === type && mine[type](event);
				});
			const executions = await waitFor(
				async () => {
					const all = await newExecutions(workflow.id, state, { count: 8, known });
					return Object.keys(mine).every((type) => ofEvent(all, type).length > 0) ? all : null;
				},
				{ what: 'one execution per event', timeoutMs: 60_000 },
			);
			/** @type {Record<string, {title: string, message: string, severity: string}>} */
			const alerts = {};
			for (const type of Object.keys(mine)) {
				const matching = ofEvent(executions, type);
				expect({ type, executions: matching.length }).toEqual({ type, executions: 1 });
				expect(matching[0].status).toBe('success');
				const output = /** @type {any[]} */ (nodeOutput(matching[0], 'Alert'));
				expect(output).toHaveLength(1);
				expect(Object.keys(output[0]).sort()).toEqual(['message', 'severity', 'title']);
				alerts[type] = output[0];
			}

			expect(alerts.payment_approved).toEqual({
				title: 'Payment approved: BRL 150.00',
				message: `BRL 150.00 from Joana Alerts was approved (transaction ${approved.id}, checkout ${checkout.id}).`,
				severity: 'info',
			});
			expect(alerts.payment_failed.title).toBe('Payment failed: BRL 150.00');
			expect(alerts.payment_failed.message).toContain(
				`was declined (reason: card_declined, transaction ${declined.id}).`,
			);
			expect(alerts.payment_failed.message).toContain(
				`try again on the same checkout page (checkout ${checkout.id})`,
			);
			expect(alerts.payment_failed.severity).toBe('warning');
			expect(alerts.payment_expired).toEqual({
				title: 'Payment expired: BRL 80.00',
				message: `BRL 80.00 from Joana Alerts was not paid in time (transaction ${unpaid.id}). Create a new charge if the customer still wants to pay.`,
				severity: 'warning',
			});
			expect(alerts.wire_waiting_correction.title).toBe('Wire needs correction: AC14');
			expect(alerts.wire_waiting_correction.message).toContain(
				`Wire ${wire.id} to bank account ${ACCOUNTS.brlCustomer} was stopped: AC14`,
			);
			expect(alerts.wire_waiting_correction.message).toContain(
				'Fix: Account Type (conta-corrente or poupanca)',
			);
			expect(alerts.wire_waiting_correction.message).toContain('Wire → Update Bank Account');
			expect(alerts.wire_waiting_correction.severity).toBe('critical');
			for (const [code, field] of Object.entries(otherCodes)) {
				const matching = executions.filter(
					(execution) =>
						/** @type {any[]} */ (nodeOutput(execution, 'FacilitaPay Trigger') ?? [])[0]
							?.wire_id === otherWires[code],
				);
				expect({ code, executions: matching.length }).toEqual({ code, executions: 1 });
				const [alert] = /** @type {any[]} */ (nodeOutput(matching[0], 'Alert'));
				expect(alert.title).toBe(`Wire needs correction: ${code}`);
				expect(alert.message).toContain(`Fix: `);
				expect(alert.message).toContain(field);
			}
			expect(alerts.subject_reproved.title).toBe('Customer reproved: Joana Alerts');
			expect(alerts.subject_reproved.message).toContain(
				`Joana Alerts (${customer.id}) was reproved (documents_rejected)`,
			);
			expect(alerts.subject_reproved.message).toContain(
				'To resolve: proof of address rejected; selfie mismatch.',
			);
			expect(alerts.subject_reproved.severity).toBe('critical');
		},
		CLI_TIMEOUT,
	);

	test(
		'Catch up on missed events: a notification that failed all redeliveries is listed, passed to Re-process Event and marked successful',
		async () => {
			const state = sharedState();
			requirePieces(state, ['sandbox', 'node']);
			const workflow = loadExample('catch-up-missed-events.json');

			// Notifications go to a port that refuses connections: the first attempt and the 5
			// redeliveries (1, 5, 15, 60, 360 minutes of the sandbox clock) all fail.
			const port = await refusingPort();
			const enabled = await sandboxApi(
				'POST',
				'/enable_webhooks',
				{ url: `http://127.0.0.1:${port}/facilitapay` },
				state,
			);
			expect(enabled.status).toBe(200);
			const subjectId = randomUUID();
			await sandboxControl(
				'POST',
				'/events',
				{ type: 'subject_approved', subject_id: subjectId },
				state,
			);
			await sandboxControl('POST', '/deliveries/wait', undefined, state);
			for (const minutes of [1, 5, 15, 60, 360]) {
				await sandboxControl('POST', '/clock/advance', { minutes }, state);
				await sandboxControl('POST', '/deliveries/wait', undefined, state);
			}
			const failedBefore = dataOf(
				await sandboxApi('GET', '/notifications?failed=true&per_page=1000', undefined, state),
			);
			const missed = failedBefore.find(
				(/** @type {any} */ n) => n.notification?.subject_id === subjectId,
			);
			expect(missed).toMatchObject({ attempts: 6, next_attempt_at: null });
			expect(missed.failed_at).not.toBeNull();

			const mark = await sandboxMark(state);
			const run = await runWorkflow(workflow, { nodeName: 'Mark as Handled', state });

			expect(run.error).toBeNull();
			expect(run.exitCode).toBe(0);
			const listed = /** @type {any[]} */ (nodeOutput(run.runData, 'Get Failed Notifications'));
			expect(listed.map((n) => n.id).sort()).toEqual(
				failedBefore.map((/** @type {any} */ n) => n.id).sort(),
			);
			const reprocessed = /** @type {any[]} */ (nodeOutput(run.runData, 'Re-process Event'));
			expect(reprocessed).toContainEqual(
				expect.objectContaining({
					id: missed.id,
					notification: expect.objectContaining({
						type: 'subject_approved',
						subject_id: subjectId,
					}),
				}),
			);
			expect(run.items).toHaveLength(failedBefore.length);
			const listCalls = await sandboxRequests(
				{ after: mark, method: 'GET', pathPrefix: '/notifications' },
				state,
			);
			expect(listCalls.length).toBeGreaterThanOrEqual(1);
			expect(listCalls[0].query).toMatchObject({ failed: 'true' });
			const marks = await sandboxRequests(
				{ after: mark, method: 'PUT', pathPrefix: '/notifications/' },
				state,
			);
			expect(marks.map((r) => r.url).sort()).toEqual(
				failedBefore.map((/** @type {any} */ n) => `/api/v1/notifications/${n.id}`).sort(),
			);
			expect(marks.every((r) => r.status === 200)).toBe(true);
			expect(
				dataOf(await sandboxApi('GET', '/notifications?failed=true', undefined, state)),
			).toEqual([]);

			// Leave no webhook pointing at the dead port for the tests that follow.
			await sandboxApi('GET', '/disable_webhooks', undefined, state);
		},
		CLI_TIMEOUT,
	);
	test(
		'Pay out to a new customer: the webhook registers the customer and their bank account, checks the balance, pays out once per reference, refuses what the balance does not cover, and the wire event says the payout was wired',
		async () => {
			const state = sharedState();
			requirePieces(state, ['sandbox', 'node', 'trigger']);
			const workflow = loadExample('payout-new-customer.json');
			const webhook = nodeOfType(workflow, 'n8n-nodes-base.webhook');
			await importWorkflows(workflow, state);
			const known = await knownExecutions(workflow.id, state);
			await activateTrigger(workflow.id, state);
			activated.add(workflow.id);
			const url = `${state.n8nUrl}/webhook/${webhook.parameters.path}`;
			const seed = (Date.now() % 1_000_000) + 11;
			const cpf = validCpf(seed);
			const reference = `payout-${seed}`;
			const request = {
				reference,
				name: 'Paulo Payout',
				cpf: `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`,
				email: `paulo.${seed}@example.com`,
				bank_code: '341',
				branch: '0001',
				account_number: '98765-4',
				pix_key: '',
				amount: '250.00',
			};
			const balanceBefore = dataOf(
				await sandboxApi('GET', `/bank_accounts/${ACCOUNTS.usdCashOut}/balance`, undefined, state),
			);
			const post = (/** @type {object} */ body) =>
				fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
				});

			const mark = await sandboxMark(state);
			const answer = await waitFor(
				async () => {
					const response = await post(request);
					return response.status === 404 ? null : response;
				},
				{ what: `the production webhook at ${url}` },
			);
			expect(answer.status).toBe(200);
			const payout = await answer.json();
			expect(payout).toMatchObject({
				id: expect.stringMatching(/^[0-9a-f-]{36}$/),
				status: 'identified',
				value: '250.00',
				currency: 'USD',
				exchange_currency: 'BRL',
				subject_is_receiver: true,
			});

			// What reached FacilitaPay, in order: the customer, their account, the balance, the payout.
			const received = (await sandboxRequests({ after: mark }, state)).filter((r) =>
				r.url.startsWith('/api/v1/'),
			);
			expect(received.map((r) => r.route)).toEqual([
				'POST /api/v1/subject/people',
				'POST /api/v1/subject/:id/bank_accounts',
				'GET /api/v1/bank_accounts/:id/balance',
				'POST /api/v1/transactions',
			]);
			const subjectId = payout.subject_id;
			expect(received[0].body.person).toMatchObject({
				document_type: 'cpf',
				document_number: cpf,
				social_name: 'Paulo Payout',
			});
			expect(received[1].url).toBe(`/api/v1/subject/${subjectId}/bank_accounts`);
			expect(received[1].body.bank_account).toEqual({
				currency: 'BRL',
				account_type: 'conta-corrente',
				account_number: '98765-4',
				branch_number: '0001',
				owner_name: 'Paulo Payout',
				owner_document_type: 'cpf',
				owner_document_number: cpf,
				branch_country: 'BRA',
				bank: { code: '341' },
			});
			expect(received[2].url).toBe(`/api/v1/bank_accounts/${ACCOUNTS.usdCashOut}/balance`);
			const [execution] = await newExecutions(workflow.id, state, { known, what: 'the payout' });
			const [account] = /** @type {any[]} */ (nodeOutput(execution, 'Register Bank Account'));
			const [balance] = /** @type {any[]} */ (nodeOutput(execution, 'Check Balance'));
			expect(balance).toMatchObject({
				bank_account_id: ACCOUNTS.usdCashOut,
				balance: balanceBefore.balance,
				currency: 'USD',
			});
			expect(received[3].body.transaction).toEqual({
				subject_id: subjectId,
				from_bank_account_id: ACCOUNTS.usdCashOut,
				to_bank_account_id: account.id,
				currency: 'USD',
				exchange_currency: 'BRL',
				value: '250.00',
			});
			expect(payout.to_bank_account).toMatchObject({ id: account.id, owner_name: 'Paulo Payout' });
			expect(payout.payout_method).toBe('ted');
			const balanceAfter = dataOf(
				await sandboxApi('GET', `/bank_accounts/${ACCOUNTS.usdCashOut}/balance`, undefined, state),
			);
			expect(balanceAfter.debit_transactions).toBe(balanceBefore.debit_transactions + 1);

			// The same reference again: the Idempotency Key pays it once (alreadyDone, no second payout).
			const againMark = await sandboxMark(state);
			const again = await post(request);
			expect(again.status).toBe(200);
			expect(await again.json()).toMatchObject({ alreadyDone: true });
			const againCalls = await sandboxRequests(
				{ after: againMark, method: 'POST', pathPrefix: '/transactions' },
				state,
			);
			expect(againCalls).toEqual([]);

			// More than the balance: stopped before any payout, the caller gets an error.
			const tooMuchMark = await sandboxMark(state);
			const tooMuch = await post({
				...request,
				reference: `${reference}-big`,
				amount: '99999999.00',
			});
			expect(tooMuch.status).toBeGreaterThanOrEqual(400);
			expect(
				await sandboxRequests(
					{ after: tooMuchMark, method: 'POST', pathPrefix: '/transactions' },
					state,
				),
			).toEqual([]);

			// FacilitaPay wires the payout: wire_created starts the trigger path.
			const beforeWire = await knownExecutions(workflow.id, state);
			const settlement = (await sandboxControl('POST', '/settlement/run', {}, state)).data;
			const wire = settlement.wires.find((/** @type {any} */ w) =>
				w.transaction_ids.includes(payout.id),
			);
			expect(wire).toMatchObject({ status: 'sent', currency: 'BRL' });
			await sandboxControl('POST', '/deliveries/wait', undefined, state);
			const wired = await waitFor(
				async () => {
					const executions = await newExecutions(workflow.id, state, { known: beforeWire });
					return (
						executions.find(
							(e) =>
								/** @type {any[]} */ (nodeOutput(e, 'FacilitaPay Trigger') ?? [])[0]?.wire_id ===
								wire.id,
						) ?? null
					);
				},
				{ what: 'the wire_created execution', timeoutMs: 60_000 },
			);
			expect(wired.status).toBe('success');
			const [line] = /** @type {any[]} */ (nodeOutput(wired, 'Payout Wired'));
			expect(line.wire_id).toBe(wire.id);
			expect(line.payouts).toEqual([
				expect.objectContaining({
					transaction_id: payout.id,
					customer: 'Paulo Payout',
					sent: 'USD 250.00',
					status: 'wired',
				}),
			]);
			expect(line.message).toContain(`Payout ${payout.id} to Paulo Payout was wired: BRL `);
		},
		CLI_TIMEOUT,
	);
});
