// The first phase: subjects, documents and transactions (14 operations), one workflow. The
// subject's steps and checks are here (create, update, get, upload, the subject's listings); the
// transactions' (PIX, refund, boleto, payout, checkout) are in transactions.mjs, run between the
// subject's steps and its listings. Uses jest's global `expect`.
import { actionStep, codeStep, sandboxApi, validCpf } from '../n8n-e2e.mjs';
import { PDF_BASE64, UUID, expectRunOk, futureBase, one, pages, ref } from './shared.mjs';
import { checkTransactions, transactionSteps } from './transactions.mjs';

/* global expect */

/**
 * What the phase chooses before it runs: the subject's CPF and name, the PIX's expiry and the
 * boleto's due date (both in the future for the sandbox clock and the real one).
 * @typedef {{
 *   seed: number,
 *   cpf: string,
 *   formattedCpf: string,
 *   name: string,
 *   pixExpiry: string,
 *   boletoDue: string,
 * }} SubjectInput
 */

/**
 * Subjects, documents and transactions (14 operations).
 * @param {import('./shared.mjs').PhaseOptions} options
 */
export async function subjectsAndTransactions({ sb, runPhase, ctx, covered }) {
	const input = await subjectInput(sb);
	const { run, log, out } = await runPhase([
		...subjectSteps(input),
		...transactionSteps(input, sb),
		...subjectListingSteps(),
	]);
	expectRunOk(run);
	const phase = { sb, run, log, out, ctx, covered };

	const subjectId = checkSubject(phase, input);
	await checkUploads(phase, subjectId);
	const transactions = checkTransactions(phase, input, subjectId);
	await checkSubjectListings(phase, subjectId, transactions);
}

/** @param {any} sb @returns {Promise<SubjectInput>} */
async function subjectInput(sb) {
	const seed = (Date.now() % 100000) + 7000;
	const cpf = validCpf(seed);
	const formattedCpf = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
	const name = `Maria E2E ${seed}`;
	const base = await futureBase(sb);
	const pixExpiry = new Date(base.getTime() + 2 * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
	const boletoDue = new Date(base.getTime() + 3 * 86400_000).toISOString().slice(0, 10);
	return { seed, cpf, formattedCpf, name, pixExpiry, boletoDue };
}

/** Create or Update (with the CPF punctuated), Update, Get, then two documents. @param {SubjectInput} input */
function subjectSteps({ seed, formattedCpf, name }) {
	return [
		actionStep('Create Subject', {
			resource: 'subject',
			operation: 'create',
			documentType: 'cpf',
			documentNumber: formattedCpf,
			socialName: name,
			fiscalCountry: 'BR',
			additionalFields: {
				addressStreet: 'Avenida Paulista',
				addressNumber: '1000',
				addressNeighborhood: 'Bela Vista',
				addressCity: 'São Paulo',
				addressState: 'SP',
				addressPostalCode: '01310-100',
				addressCountry: 'BR',
				email: `maria.${seed}@example.com`,
				phoneCountryCode: '55',
				phoneAreaCode: '11',
				phoneNumber: '987654321',
				netMonthlyAverageIncome: '5000.00',
				website: 'https://example.com/maria',
				birthDate: '1990-05-17',
			},
		}),
		actionStep('Update Subject', {
			resource: 'subject',
			operation: 'update',
			subjectId: ref('Create Subject'),
			updateFields: { socialName: `${name} Souza` },
		}),
		actionStep('Get Subject', {
			resource: 'subject',
			operation: 'get',
			subjectId: ref('Create Subject'),
			simplify: false,
		}),
		...documentSteps(),
	];
}

/** A real n8n binary (Code, then Convert to File) uploaded, then a document by public URL. */
function documentSteps() {
	return [
		codeStep('Document File', `return [{ json: { pdf: '${PDF_BASE64}' } }];`),
		{
			name: 'To File',
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			parameters: {
				operation: 'toBinary',
				sourceProperty: 'pdf',
				binaryPropertyName: 'data',
				options: { fileName: 'address-proof.pdf', mimeType: 'application/pdf' },
			},
		},
		actionStep('Upload Address Proof', {
			resource: 'subject',
			operation: 'uploadDocument',
			subjectId: ref('Create Subject'),
			labels: ['address-proof'],
			source: 'binary',
			binaryPropertyName: 'data',
		}),
		actionStep('Upload CPF by URL', {
			resource: 'subject',
			operation: 'uploadDocument',
			subjectId: ref('Create Subject'),
			labels: ['cpf-number'],
			source: 'url',
			fileUrl: 'https://example.com/docs/cpf.pdf',
			fileType: 'application/pdf',
		}),
	];
}

/** The subject's transactions, their total, and the subjects (after the transactions' steps). */
function subjectListingSteps() {
	return [
		actionStep('Subject Transactions', {
			resource: 'subject',
			operation: 'getTransactions',
			subjectId: ref('Create Subject'),
			returnAll: true,
			simplify: false,
		}),
		actionStep(
			'Transaction Values',
			{ resource: 'subject', operation: 'getTransactionValues', subjectId: ref('Create Subject') },
			{ executeOnce: true },
		),
		actionStep(
			'Subjects',
			{ resource: 'subject', operation: 'getMany', returnAll: false, limit: 10, simplify: false },
			{ executeOnce: true },
		),
	];
}

/**
 * Subject: Create or Update (punctuation removed before sending), Update, Get. Records the
 * subject's ID and CPF in `ctx` for the later phases, and returns the ID.
 * @param {import('./shared.mjs').PhaseRun} phase
 * @param {SubjectInput} input
 */
function checkSubject({ log, out, ctx, covered }, { seed, cpf, name }) {
	const [created] = out('Create Subject');
	expect(created).toMatchObject({
		id: expect.stringMatching(new RegExp(`^${UUID}$`)),
		document_number: cpf,
		social_name: name,
	});
	const subjectId = created.id;
	ctx.subjectId = subjectId;
	ctx.subjectCpf = cpf;
	const createReq = one(log, 'POST', /\/api\/v1\/subject\/people$/);
	expect(createReq.body.person).toMatchObject({
		document_type: 'cpf',
		document_number: cpf,
		social_name: name,
		fiscal_country: 'BR',
		address_postal_code: '01310100',
		address_state: 'SP',
		email: `maria.${seed}@example.com`,
		net_monthly_average_income: '5000.00',
	});
	covered.add('subject.create');

	expect(out('Update Subject')).toEqual([
		expect.objectContaining({ id: subjectId, social_name: `${name} Souza` }),
	]);
	const updateReq = one(log, 'PUT', new RegExp(`/api/v1/subject/people/${subjectId}$`));
	expect(updateReq.body).toEqual({ person: { social_name: `${name} Souza` } });
	covered.add('subject.update');

	expect(out('Get Subject')).toEqual([
		expect.objectContaining({
			id: subjectId,
			social_name: `${name} Souza`,
			document_number: cpf,
			address_city: 'São Paulo',
		}),
	]);
	one(log, 'GET', new RegExp(`/api/v1/subject/people/${subjectId}$`));
	covered.add('subject.get');
	return subjectId;
}

/**
 * Upload Document: a real n8n binary (Convert to File), then a public URL.
 * @param {import('./shared.mjs').PhaseRun} phase
 * @param {string} subjectId
 */
async function checkUploads({ sb, log, out, covered }, subjectId) {
	const uploads = log.filter(
		(r) => r.method === 'POST' && r.url.endsWith(`/subject/${subjectId}/documents`),
	);
	expect(uploads).toHaveLength(2);
	expect(uploads[0].body.document).toMatchObject({
		labels: ['address-proof'],
		file_type: 'application/pdf',
		file_name: 'address-proof.pdf',
	});
	expect(
		Buffer.from(String(uploads[0].body.document.file_data), 'base64')
			.toString('latin1')
			.startsWith('%PDF') || String(uploads[0].body.document.file_data).startsWith('JVBER'),
	).toBe(true);
	expect(uploads[1].body.document).toEqual({
		labels: ['cpf-number'],
		file_type: 'application/pdf',
		file_url: 'https://example.com/docs/cpf.pdf',
	});
	expect(out('Upload Address Proof')).toHaveLength(1);
	expect(out('Upload CPF by URL')).toHaveLength(1);
	const stored = await sandboxApi('GET', `/subject/people/${subjectId}`, undefined, sb.state);
	expect(stored.json.data.documents).toHaveLength(2);
	covered.add('subject.uploadDocument');
}

/**
 * The subject's transactions and their total, then the subjects.
 * @param {import('./shared.mjs').PhaseRun} phase
 * @param {string} subjectId
 * @param {{pixId: string, boletoId: string, payoutId: string}} transactions what the phase created
 */
async function checkSubjectListings({ sb, log, out, ctx, covered }, subjectId, transactions) {
	const transactionIds = out('Subject Transactions').map((t) => t.id);
	for (const id of [
		transactions.pixId,
		ctx.wirePixId,
		transactions.boletoId,
		transactions.payoutId,
	])
		expect(transactionIds).toContain(id);
	pages(log, 'GET', new RegExp(`/api/v1/subject/${subjectId}/transactions$`));
	covered.add('subject.getTransactions');
	const direct = await sandboxApi(
		'GET',
		`/subject/${subjectId}/transaction_values`,
		undefined,
		sb.state,
	);
	expect(out('Transaction Values')).toEqual([expect.objectContaining(direct.json.data)]);
	expect(Number(direct.json.data.transactions_count)).toBeGreaterThanOrEqual(1);
	one(log, 'GET', new RegExp(`/api/v1/subject/${subjectId}/transaction_values$`));
	covered.add('subject.getTransactionValues');
	expect(out('Subjects').map((s) => s.id)).toContain(subjectId);
	expect(
		log.some((r) => r.method === 'GET' && /\/api\/v1\/subject\/people(\?|$)/.test(r.url)),
	).toBe(true);
	covered.add('subject.getMany');
}
