// The example workflow "Onboard a customer" (examples/onboard-customer.json) in a real n8n 2.x
// against the sandbox, imported as-is (same ids, names, parameters and credential reference
// "facilitapay-sandbox", which test/e2e/global-setup.mjs creates pointing at the in-process
// sandbox). See README.md, "Example workflows".
//
// The workflow is published and its production form is submitted the way a browser does it
// (multipart POST to /form/<path> with a PDF), then the completion page is read (the PIX code, and
// the QR image's data URI scanned back to exactly that code by test/e2e/lib/qr.mjs) and resumed like
// the page's own script does. No substitute trigger: the Form Trigger itself turns the submission
// into the item (fields + binary) the FacilitaPay nodes use.
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import { listExecutions, nodeBinary, nodeOutput } from './lib/n8n.mjs';
import * as e2eSandbox from './lib/sandbox.mjs';
import { describeE2e, testE2e, waitFor } from './lib/state.mjs';
import { loadExample, newExecutions, nodeOfType, usePublishedExamples } from './lib/examples.mjs';
import { decodeQrSvg, imgDataUris } from './lib/qr.mjs';

/** A small but real PDF (the node and the sandbox check the file's magic bytes). */
const PDF = Buffer.from(
	'%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/**
 * The example's PIX expiry is n8n's `$now` + 1 hour, checked by the sandbox against ITS clock. The
 * shared sandbox's clock starts at real time, frozen, and only moves forward (the catch-up example's
 * test moves it 7 hours): if a test that ran earlier left it more than 50 minutes ahead of real
 * time, the only way back is POST /_sandbox/reset (which also empties the sandbox; every test makes
 * its own data).
 * @param {any} state
 */
async function clockNotAhead(state) {
	const { now } = (await e2eSandbox.sandboxControl('GET', '/clock', undefined, state)).data ?? {};
	if (now && Date.parse(now) > Date.now() + 50 * 60_000) {
		console.warn(
			`examples-onboard-customer.test.mjs: the sandbox clock (${now}) is ahead of real time; resetting the sandbox`,
		);
		await e2eSandbox.sandboxControl('POST', '/reset', undefined, state);
	}
}

describeE2e('Example workflow "Onboard a customer" in a real n8n 2.x', () => {
	const publish = usePublishedExamples();

	testE2e(
		'Onboard a customer: the published form creates the subject, uploads the document, creates a dynamic PIX and shows its code and QR image',
		['sandbox', 'node'],
		async (state) => {
			await clockNotAhead(state);
			const workflow = loadExample('onboard-customer.json');
			const formTrigger = nodeOfType(workflow, 'n8n-nodes-base.formTrigger');
			const formPath = formTrigger.parameters.options.path;
			const mark = await e2eSandbox.sandboxMark(state);
			const known = await publish(workflow, state);
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
			const cpf = e2eSandbox.validCpf(Date.now() % 1_000_000);
			const answers = {
				'Full name': 'Maria Onboarding',
				CPF: e2eSandbox.formattedCpf(cpf),
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
			const received = await e2eSandbox.sandboxRequests({ after: mark }, state);
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
			const subject = await e2eSandbox.sandboxData(
				'GET',
				`/subject/people/${registered.id}`,
				undefined,
				state,
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
				from_bank_account_id: ACCOUNT_IDS.brlPixExclusive,
				to_bank_account_id: ACCOUNT_IDS.brlNoPixKey,
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
	);

	/**
	 * Submits the published form as a browser does and returns the page the person sees next.
	 * @param {any} state @param {Record<string, string>} changes @param {Buffer} [file]
	 */
	async function submitForm(state, changes, file = PDF) {
		const workflow = loadExample('onboard-customer.json');
		const formTrigger = nodeOfType(workflow, 'n8n-nodes-base.formTrigger');
		const formUrl = `${state.n8nUrl}/form/${formTrigger.parameters.options.path}`;
		const known = await publish(workflow, state);
		await waitFor(async () => ((await fetch(formUrl)).status === 200 ? true : null), {
			what: `the production form at ${formUrl}`,
		});
		const seed = (Date.now() % 1_000_000) + 31;
		/** @type {Record<string, string>} */
		const answers = {
			'Full name': 'Rita Retry',
			CPF: e2eSandbox.formattedCpf(e2eSandbox.validCpf(seed)),
			'E-mail': `rita.${seed}@example.com`,
			Street: 'Rua Augusta',
			Number: '10',
			Neighborhood: 'Consolação',
			'Postal code': '01305-000',
			City: 'São Paulo',
			State: 'SP',
			'Bank code': '260',
			Branch: '0001',
			'Account number': '12345-6',
			'PIX key': '',
			...changes,
		};
		const form = new FormData();
		formTrigger.parameters.formFields.values.forEach(
			(/** @type {any} */ field, /** @type {number} */ index) => {
				if (field.fieldType === 'file')
					form.append(`field-${index}`, new Blob([file], { type: 'application/pdf' }), 'proof.pdf');
				else form.append(`field-${index}`, answers[field.fieldLabel]);
			},
		);
		const submitted = await fetch(formUrl, { method: 'POST', body: form, redirect: 'manual' });
		expect(submitted.status).toBe(200);
		const { formWaitingUrl } = await submitted.json();
		const [execution] = await newExecutions(workflow.id, state, {
			known,
			what: 'the onboarding execution',
		});
		const page = await fetch(formWaitingUrl);
		expect(page.status).toBe(200);
		return { execution, html: await page.text(), answers };
	}

	testE2e(
		'Onboard a customer: an invalid CPF shows the person which field is wrong and how to write it, and nothing is sent',
		['sandbox', 'node'],
		async (state) => {
			await clockNotAhead(state);
			const mark = await e2eSandbox.sandboxMark(state);
			const digits = e2eSandbox.validCpf((Date.now() % 1_000_000) + 41);
			const wrong = digits.slice(0, 10) + String((Number(digits[10]) + 1) % 10);
			const { execution, html } = await submitForm(state, { CPF: e2eSandbox.formattedCpf(wrong) });

			// The execution waits on the problem page (not failed: the person gets an answer).
			expect(execution.status).toBe('waiting');
			const [explained] = /** @type {any[]} */ (nodeOutput(execution, 'Explain the Problem'));
			expect(explained).toMatchObject({
				field: 'CPF',
				step: 'Create or Update Customer',
				howToFix:
					'Enter the 11 digits of your CPF, with or without dots and dash, e.g. 390.533.447-05.',
			});
			expect(explained.problem).toMatch(/^Invalid CPF: .*not a valid CPF/);
			expect(html).toContain('Please check: CPF');
			expect(html).toContain(explained.problem);
			expect(html).toContain('Enter the 11 digits of your CPF');
			expect(html).toContain('correct CPF and send the form again');
			expect(html).not.toContain('Problem submitting response');
			expect(nodeOutput(execution, 'Show PIX Code')).toBeUndefined();
			// Nothing reached FacilitaPay.
			expect(
				(await e2eSandbox.sandboxRequests({ after: mark }, state)).filter((r) =>
					r.url.startsWith('/api/v1/'),
				),
			).toEqual([]);
		},
	);

	testE2e(
		'Onboard a customer: a file that is not a PDF, PNG or JPEG shows "Proof of address" and what to send; no bank account or charge is made',
		['sandbox', 'node'],
		async (state) => {
			await clockNotAhead(state);
			const mark = await e2eSandbox.sandboxMark(state);
			const { execution, html } = await submitForm(
				state,
				{},
				Buffer.from('this is a text file, not a PDF\n'),
			);
			const [explained] = /** @type {any[]} */ (nodeOutput(execution, 'Explain the Problem'));
			expect(explained).toMatchObject({
				field: 'Proof of address',
				step: 'Upload Proof of Address',
				howToFix: 'Send a PDF, PNG or JPEG file of at most 15 MB.',
			});
			expect(html).toContain('Please check: Proof of address');
			expect(html).toContain('Send a PDF, PNG or JPEG file of at most 15 MB.');
			// The browser tagged the text file application/pdf: the node sends a type it cannot tell from
			// the content with its tag, and FacilitaPay refuses the mismatch. Nothing after it runs.
			const calls = (await e2eSandbox.sandboxRequests({ after: mark }, state)).filter((r) =>
				r.url.startsWith('/api/v1/'),
			);
			expect(calls.map((r) => r.route)).toEqual([
				'POST /api/v1/subject/people',
				'POST /api/v1/subject/:id/documents',
			]);
			expect(calls[1].status).toBeGreaterThanOrEqual(400);
		},
	);
});
