// Money under n8n's own retries, in a real n8n 2.x: four payouts with Retry On Fail (3 tries); the
// sandbox creates the second payout and then drops the connection before answering (`reset_after`),
// so the node cannot know whether it was paid. n8n runs the node again; the node finds the payout
// at FacilitaPay by the identity in its meta (issue 24) and sends only the rest: no payout reaches
// the service twice. With a FacilitaPay that drops meta, the payout cannot be settled: the run
// fails naming the unknown outcome. With Continue On Fail the other payouts go through and the
// unknown one is an error item.
import { CREDENTIAL_TYPE } from '../../scripts/n8n-runtime.mjs';
import { ACCOUNTS } from './lib/operation-phases.mjs';
import { importWorkflows, runWorkflow } from './lib/n8n.mjs';
import {
	createPerson,
	importUsernamePasswordCredentials,
	postedBodies,
	samplePerson,
	sandboxControl,
	sandboxMark,
	sandboxRequests,
} from './lib/sandbox.mjs';
import { CLI_TIMEOUT, describeE2e, requirePieces, sharedState } from './lib/state.mjs';
import { actionStep, chainWorkflow, codeStep } from './lib/workflows.mjs';

describeE2e(
	'Money is sent at most once per execution, also under Retry On Fail (real n8n 2.x)',
	() => {
		const values = ['11.01', '11.02', '11.03', '11.04'];
		let subjectId = '';
		const payouts = (/** @type {object} */ settings, name) =>
			chainWorkflow({
				name,
				steps: [
					codeStep(
						'Payouts',
						`return ${JSON.stringify(values.map((value) => ({ json: { value } })))};`,
					),
					actionStep(
						'FacilitaPay',
						{
							resource: 'transaction',
							operation: 'createPayout',
							subjectId: '',
							value: '={{ $json.value }}',
							currency: 'USD',
							exchangeCurrency: 'BRL',
							fromBankAccountId: ACCOUNTS.usdCashOut,
							toBankAccountId: ACCOUNTS.brlCustomer,
							requestOptions: { concurrency: 1 },
						},
						settings,
					),
				],
			});
		/** @type {any} */ let stopping;
		/** @type {any} */ let continuing;

		beforeAll(async () => {
			requirePieces(sharedState(), ['sandbox', 'node']);
			const seed = (Date.now() % 100000) + 31000;
			const person = samplePerson(seed, `Money Safety ${seed}`, { email: null, complete: false });
			subjectId = (await createPerson(person)).id;
			const retrying = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };
			stopping = payouts(retrying, 'e2e money: retry on fail');
			continuing = payouts(
				{ ...retrying, onError: 'continueRegularOutput' },
				'e2e money: retry on fail, continue',
			);
			for (const workflow of [stopping, continuing]) {
				workflow.nodes.find((n) => n.name === 'FacilitaPay').parameters.subjectId = subjectId;
			}
			await importWorkflows([stopping, continuing]);
		}, CLI_TIMEOUT);

		afterEach(async () => {
			await sandboxControl('DELETE', '/faults');
		});

		/** Payout requests the sandbox received since the mark, by value. @param {number} mark */
		const payoutsSince = async (mark) =>
			(await postedBodies(mark, { route: 'POST /api/v1/transactions' })).map(
				(body) => body?.transaction?.value,
			);
		/** FacilitaPay creates the second payout, then drops the connection before answering. */
		const resetAfterSecondPayout = () =>
			sandboxControl('POST', '/faults', {
				route: 'POST /api/v1/transactions',
				rate: 1,
				kind: 'reset_after',
				skip: 1,
				count: 1,
			});

		test(
			'a reset after the second payout was created: Retry On Fail finds it at FacilitaPay by its identity, sends the rest, and each payout reaches the service once',
			async () => {
				await resetAfterSecondPayout();
				const mark = await sandboxMark();

				const run = await runWorkflow(stopping, { imported: true });

				expect(run.exitCode).toBe(0);
				expect(run.items).toHaveLength(4);
				expect(run.items[1]).toMatchObject({ value: '11.02', alreadyDone: true });
				expect(run.items[1].alreadyDoneNote).toMatch(/FacilitaPay already holds this payment/);
				expect(await payoutsSince(mark)).toEqual(values);
			},
			CLI_TIMEOUT,
		);

		test(
			'the same with a FacilitaPay that drops meta: the unknown payout cannot be settled, so it is never sent again and the run fails naming it',
			async () => {
				await resetAfterSecondPayout();
				await sandboxControl('POST', '/meta', { mode: 'drop' });
				const mark = await sandboxMark();

				const run = await runWorkflow(stopping, { imported: true });
				await sandboxControl('POST', '/meta', { mode: 'keep' });

				expect(run.exitCode).not.toBe(0);
				expect(run.error?.message).toMatch(/^Outcome unknown \(item 1\)/);
				expect(run.error?.message).toMatch(/does not prove "not sent"/);
				// Three tries of the node, yet only the first two payouts were ever sent, once each.
				expect(await payoutsSince(mark)).toEqual(['11.01', '11.02']);
			},
			CLI_TIMEOUT,
		);

		test(
			'with Continue On Fail the other payouts go through once and the unknown one is an error item marked outcome: unknown',
			async () => {
				await resetAfterSecondPayout();
				const mark = await sandboxMark();

				const run = await runWorkflow(continuing, { imported: true });

				expect(run.exitCode).toBe(0);
				expect(run.items).toHaveLength(4);
				expect(run.items[0]).toMatchObject({ value: '11.01' });
				expect(run.items[1]).toMatchObject({
					outcome: 'unknown',
					error: expect.stringMatching(/^Outcome unknown \(item 1\)/),
				});
				expect(run.items[2]).toMatchObject({ value: '11.03' });
				expect(run.items[3]).toMatchObject({ value: '11.04' });
				expect(await payoutsSince(mark)).toEqual(values);
			},
			CLI_TIMEOUT,
		);

		describe("n8n's HTTP Request node with the FacilitaPay credentials", () => {
			// n8n's HTTP Request node asks the credential for a new session token after ANY failed
			// request and sends the request again when it gets one. The credential answers "nothing new"
			// while the token still works, so a payout answered with a 500 is sent once.
			const userPass = {
				id: 'facilitapay-money-userpass',
				name: 'FacilitaPay Money (username and password)',
			};
			const token = { id: 'facilitapay-sandbox', name: 'FacilitaPay Sandbox' };
			/** @param {{id: string, name: string}} credentials @param {string} value */
			const httpPayout = (credentials, value) => {
				const workflow = chainWorkflow({
					name: `e2e money: HTTP Request payout (${credentials.id})`,
					credentials,
					steps: [
						codeStep('One', 'return [{ json: {} }];'),
						{
							name: 'HTTP Request',
							type: 'n8n-nodes-base.httpRequest',
							typeVersion: 4.2,
							parameters: {
								method: 'POST',
								url: `${sharedState().sandboxUrl}/api/v1/transactions`,
								authentication: 'predefinedCredentialType',
								nodeCredentialType: CREDENTIAL_TYPE,
								sendBody: true,
								specifyBody: 'json',
								jsonBody: JSON.stringify({
									transaction: {
										subject_id: subjectId,
										from_bank_account_id: ACCOUNTS.usdCashOut,
										to_bank_account_id: ACCOUNTS.brlCustomer,
										currency: 'USD',
										exchange_currency: 'BRL',
										value,
									},
								}),
								options: {},
							},
						},
					],
				});
				// chainWorkflow gives credentials to FacilitaPay nodes only.
				workflow.nodes.find((n) => n.name === 'HTTP Request').credentials = {
					[CREDENTIAL_TYPE]: credentials,
				};
				return workflow;
			};

			beforeAll(async () => {
				await importUsernamePasswordCredentials(userPass, sharedState().sandboxUrl);
			}, CLI_TIMEOUT);

			test.each([
				['an access token', token, '12.01'],
				['username and password', userPass, '12.02'],
			])(
				'with %s, a payout answered with a 500 is sent once, not again by the HTTP Request node',
				async (_name, credentials, value) => {
					const workflow = httpPayout(credentials, value);
					await importWorkflows(workflow);
					await sandboxControl('POST', '/faults', {
						route: 'POST /api/v1/transactions',
						rate: 1,
						kind: '500',
						count: 1,
					});
					const mark = await sandboxMark();

					const run = await runWorkflow(workflow, { imported: true, nodeName: 'HTTP Request' });

					const all = (await sandboxRequests({ after: mark })).map(
						(r) => `${r.method} ${String(r.url).split('?')[0]} → ${r.status}`,
					);
					expect(run.error?.message).toMatch(/500|Internal Server Error|not able to process/i);
					// The payout went out once and was not sent again; with username and password the
					// credential checked that its token still works (GET /notifications) instead.
					expect(all.filter((line) => line.startsWith('POST /api/v1/transactions'))).toEqual([
						'POST /api/v1/transactions → 500',
					]);
					expect(all.filter((line) => line.startsWith('GET /api/v1/notifications'))).toEqual(
						credentials === userPass ? ['GET /api/v1/notifications → 200'] : [],
					);
				},
				CLI_TIMEOUT,
			);
		});
	},
);
