// The FacilitaPay credentials in a real n8n 2.x, against a sandbox of this file's own (its clock is
// moved by a day, which the shared sandbox's other users must not see):
// 1. Username and Password: n8n signs in once (preAuthentication fills the expirable
//    `sessionToken`, which n8n stores with the credentials), reuses the token in later executions,
//    and when the token has expired (25 h of the sandbox clock) the refused request makes n8n sign
//    in once more and resend it.
// 2. The credential test as the editor's "Test" button calls it (POST /rest/credentials/test as the
//    owner): a good token connects, a wrong one is refused; Username and Password as saved
//    connects, and a wrongly typed password fails the test (the sign-in is refused).
// 3. The HTTP Request node using our credentials as a predefined credential type gets the bearer
//    header (the sandbox answers 401 without it).
import { CREDENTIAL_TYPE, sandboxCredentials, setupOwner } from '../../scripts/n8n-runtime.mjs';
import { importWorkflows, runWorkflow } from './lib/n8n.mjs';
import {
	createPerson,
	importUsernamePasswordCredentials,
	samplePerson,
	sandboxControl,
	sandboxMark,
	sandboxRequests,
	startPrivateSandbox,
} from './lib/sandbox.mjs';
import { CLI_TIMEOUT, describeE2e, requirePieces, sharedState } from './lib/state.mjs';
import { actionStep, chainWorkflow, codeStep, workflowWithNode } from './lib/workflows.mjs';

/** "POST /api/v1/sign_in → 200": readable in a failed assertion's diff. @param {any[]} requests */
const lines = (requests) =>
	requests.map((r) => `${r.method} ${String(r.url).split('?')[0]} → ${r.status}`);

/** Fails with the failed node's message and the end of n8n's output when a run did not go through. @param {any} run */
function expectRunSucceeded(run) {
	if (run.exitCode !== 0 || run.error) {
		throw new Error(
			`The workflow failed (exit ${run.exitCode}): ${run.error?.message ?? ''} ${run.error?.description ?? ''}\n` +
				`--- n8n stdout (end) ---\n${String(run.stdout).slice(-2500)}\n--- n8n stderr (end) ---\n${String(run.stderr).slice(-1500)}`,
		);
	}
}

describeE2e('FacilitaPay credentials in a real n8n 2.x', () => {
	/** @type {Awaited<ReturnType<typeof startPrivateSandbox>>} */
	let sb;
	/** Credentials signing in with username and password (imported in beforeAll). */
	const userPass = { id: 'facilitapay-creds-userpass', name: 'FacilitaPay Username and Password' };
	/** @type {string[]} */
	const subjectIds = [];

	beforeAll(async () => {
		const state = sharedState();
		requirePieces(state, ['sandbox', 'node']);
		sb = await startPrivateSandbox({
			id: 'facilitapay-creds-sandbox',
			name: 'FacilitaPay Credentials Sandbox',
		});
		await importUsernamePasswordCredentials(userPass, sb.sandboxUrl, state);
		// Five people to read back, registered with the static token (a fixture, not the node).
		const seed = (Date.now() % 100000) + 31000;
		for (let i = 0; i < 5; i++) {
			const person = samplePerson(seed + i, `Credentials Person ${seed}-${i}`, {
				email: null,
				complete: false,
				fiscalCountry: 'Brazil',
			});
			subjectIds.push((await createPerson(person, sb.state)).id);
		}
	}, CLI_TIMEOUT);

	afterAll(async () => {
		await sb?.close();
	});

	test(
		'Username and Password: one sign-in serves two executions of five reads; after the token expires, one more sign-in and the run still succeeds',
		async () => {
			// Code (5 items, one subject id each) → FacilitaPay Subject → Get, 5 requests per run.
			const workflow = chainWorkflow({
				name: 'e2e credentials: username and password',
				credentials: userPass,
				steps: [
					codeStep(
						'Five Subjects',
						`return ${JSON.stringify(subjectIds.map((subjectId) => ({ json: { subjectId } })))};`,
					),
					actionStep('FacilitaPay', {
						resource: 'subject',
						operation: 'get',
						subjectId: '={{ $json.subjectId }}',
						simplify: false,
					}),
				],
			});
			await importWorkflows(workflow);
			const expectFiveSubjects = (/** @type {any} */ run) => {
				expectRunSucceeded(run);
				expect(run.items.map((item) => item.id)).toEqual(subjectIds);
			};
			const start = await sandboxMark(sb.state);

			const first = await runWorkflow(workflow, { imported: true, state: sb.state });
			const second = await runWorkflow(workflow, { imported: true, state: sb.state });

			expectFiveSubjects(first);
			expectFiveSubjects(second);
			const beforeExpiry = await sandboxRequests({ after: start }, sb.state);
			// n8n kept the session token between the two executions: one sign-in for ten reads.
			expect(
				lines(beforeExpiry.filter((r) => r.method === 'POST' && r.url.includes('/sign_in'))),
			).toEqual(['POST /api/v1/sign_in → 200']);
			const reads = beforeExpiry.filter(
				(r) => r.method === 'GET' && r.url.includes('/subject/people/'),
			);
			expect(reads).toHaveLength(10);
			expect(reads.every((r) => r.status === 200)).toBe(true);

			// 25 hours later the stored token has expired (it lives 24 h of the sandbox clock).
			await sandboxControl('POST', '/clock/advance', { hours: 25 }, sb.state);
			const afterExpiryMark = await sandboxMark(sb.state);

			const third = await runWorkflow(workflow, { imported: true, state: sb.state });

			expectFiveSubjects(third);
			const afterExpiry = await sandboxRequests({ after: afterExpiryMark }, sb.state);
			// The five reads go out in parallel with the expired token and are all refused; the node
			// sees the refusals itself, so no check read is needed: they share ONE sign-in, and each
			// is resent once with the new token.
			const all = lines(afterExpiry);
			expect(all.filter((line) => line.startsWith('GET /api/v1/notifications'))).toEqual([]);
			const seen = all.filter((line) => !line.startsWith('GET /api/v1/notifications'));
			expect(seen.filter((line) => line.startsWith('POST /api/v1/sign_in'))).toEqual([
				'POST /api/v1/sign_in → 200',
			]);
			expect(seen.filter((line) => line.endsWith('→ 401')).sort()).toEqual(
				subjectIds.map((id) => `GET /api/v1/subject/people/${id} → 401`).sort(),
			);
			expect(
				seen.filter((line) => line.endsWith('→ 200') && line.startsWith('GET')).sort(),
			).toEqual(subjectIds.map((id) => `GET /api/v1/subject/people/${id} → 200`).sort());
			// Every refusal came before the sign-in, every success after it.
			const signInAt = seen.indexOf('POST /api/v1/sign_in → 200');
			expect(seen.slice(0, signInAt).every((line) => line.endsWith('→ 401'))).toBe(true);
		},
		CLI_TIMEOUT * 2,
	);

	describe('the credential test (the editor\'s "Test" button, POST /rest/credentials/test)', () => {
		/** @type {Awaited<ReturnType<typeof setupOwner>>['client']} */
		let owner;
		beforeAll(async () => {
			({ client: owner } = await setupOwner(/** @type {string} */ (sharedState().n8nUrl)));
		}, CLI_TIMEOUT);

		/**
		 * The editor's "Test" button: POST /rest/credentials/test as the owner, with the stored
		 * credential's id and name and the data as the form shows it.
		 * @param {{id: string, name: string, data: object}} credential
		 */
		const testCredential = ({ id, name, data }) =>
			owner.call('POST', '/rest/credentials/test', {
				credentials: { id, name, type: CREDENTIAL_TYPE, data },
			});

		/** What the editor sends: the stored credential's id with the data as the form shows it. @param {string} accessToken */
		const testWithToken = async (accessToken) => {
			const data = sandboxCredentials({
				baseUrl: `${sb.sandboxUrl}/api/v1`,
				token: accessToken,
			}).data;
			const response = await testCredential({ ...sb.credentials, data });
			expect(response.status).toBe(200);
			return response.json.data;
		};

		test(
			'a good access token: "Connection successful!", after one GET /notifications?per_page=1',
			async () => {
				const mark = await sandboxMark(sb.state);

				const result = await testWithToken('sandbox-token');

				expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
				const sent = await sandboxRequests({ after: mark }, sb.state);
				expect(lines(sent)).toEqual(['GET /api/v1/notifications → 200']);
				expect(sent[0].query).toEqual({ per_page: '1' });
			},
			CLI_TIMEOUT,
		);

		test(
			'a wrong access token: the test fails and says FacilitaPay refused the credentials',
			async () => {
				const mark = await sandboxMark(sb.state);

				const result = await testWithToken('not-the-sandbox-token');

				// The editor shows "Couldn't connect with these settings" followed by this message.
				expect(result.status).toBe('Error');
				expect(result.message).toMatch(
					/^FacilitaPay refused these credentials\. Check the environment/,
				);
				// n8n resends a refused request once after calling preAuthentication again (which, for an
				// access token, changes nothing): both attempts were refused, nothing got through.
				const sent = await sandboxRequests({ after: mark }, sb.state);
				expect(sent.length).toBeGreaterThanOrEqual(1);
				expect(lines(sent).every((line) => line === 'GET /api/v1/notifications → 401')).toBe(true);
			},
			CLI_TIMEOUT,
		);

		/** The stored credentials as the editor loads them (secrets redacted), to edit and test. @param {string} id */
		const asTheEditorLoadsThem = async (id) => {
			const response = await owner.call('GET', `/rest/credentials/${id}?includeData=true`);
			expect(response.status).toBe(200);
			return response.json.data;
		};

		test(
			'Username and Password as saved (the editor sends the secrets redacted): "Connection successful!"',
			async () => {
				const stored = await asTheEditorLoadsThem(userPass.id);
				expect(stored.data.password).not.toBe('sandbox'); // redacted, as the editor gets it
				const mark = await sandboxMark(sb.state);

				const response = await testCredential(stored);

				expect(response.json.data).toEqual({ status: 'OK', message: 'Connection successful!' });
				expect(lines(await sandboxRequests({ after: mark }, sb.state))).toContain(
					'GET /api/v1/notifications → 200',
				);
			},
			CLI_TIMEOUT,
		);

		// n8n calls preAuthentication only while the expirable `sessionToken` is empty or after a 401,
		// and the editor's test carries the token obtained with the SAVED password. The credential
		// therefore sends that token only while the fingerprint of the username and password it was
		// obtained with matches the ones being tested: with a new password the test request is
		// refused, n8n signs in with the typed password, and a wrong one fails the test.
		test(
			'Username and Password with a wrong password typed in: the test fails and says the sign-in was refused',
			async () => {
				const stored = await asTheEditorLoadsThem(userPass.id);
				const mark = await sandboxMark(sb.state);

				const response = await testCredential({
					...stored,
					data: { ...stored.data, password: 'not-the-password' },
				});

				expect(response.json.data.status).toBe('Error');
				expect(response.json.data.message).toMatch(
					/^FacilitaPay refused these credentials\. Check the environment/,
				);
				expect(lines(await sandboxRequests({ after: mark, method: 'POST' }, sb.state))).toEqual([
					'POST /api/v1/sign_in → 401',
				]);
			},
			CLI_TIMEOUT,
		);
	});

	test(
		'HTTP Request node with FacilitaPay API as predefined credential type: the sandbox answers (the bearer header was added)',
		async () => {
			const mark = await sandboxMark(sb.state);

			const run = await runWorkflow(
				workflowWithNode({
					name: 'e2e credentials: HTTP Request with facilitaPayApi',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					nodeName: 'HTTP Request',
					credentials: sb.credentials,
					parameters: {
						method: 'GET',
						url: `${sb.sandboxUrl}/api/v1/subject/people`,
						authentication: 'predefinedCredentialType',
						nodeCredentialType: CREDENTIAL_TYPE,
						options: {},
					},
				}),
				{ nodeName: 'HTTP Request', state: sb.state },
			);

			expectRunSucceeded(run);
			expect(run.items).toHaveLength(1);
			expect(run.items[0].data.map((/** @type {any} */ person) => person.id)).toEqual(
				expect.arrayContaining(subjectIds),
			);
			expect(lines(await sandboxRequests({ after: mark }, sb.state))).toEqual([
				'GET /api/v1/subject/people → 200',
			]);
		},
		CLI_TIMEOUT,
	);
});
