// Issue 39 in a real n8n 2.x: FacilitaPay's gateway answers 504 and FacilitaPay writes the payout
// seconds later (the sandbox's `late_commit` fault). A workflow pays one payout (so the subject's
// newest record is known in the process), then two side by side with Retry On Fail at n8n's default
// (1 s between tries). The first of the two to arrive is answered 504 after 300 ms and written 4 s
// after it arrived; the other is answered at once. n8n runs the node again 1 s later: the payout
// answered 504 is not found yet. "Not found" then proves nothing (the other payout's record, written
// after the 504 one was sent, does not show FacilitaPay finished writing it): the item fails as
// Outcome unknown, with the moment it may be retried, and FacilitaPay holds it once.
import { ACCOUNTS } from './lib/operation-phases.mjs';
import { importWorkflows, runWorkflow } from './lib/n8n.mjs';
import {
	createPerson,
	postedBodies,
	samplePerson,
	sandboxControl,
	sandboxData,
	sandboxMark,
} from './lib/sandbox.mjs';
import { CLI_TIMEOUT, describeE2e, requirePieces, sharedState } from './lib/state.mjs';
import { actionStep, chainWorkflow, codeStep } from './lib/workflows.mjs';

const payout = (name, subjectId, value, settings = {}, requestOptions = { concurrency: 1 }) =>
	actionStep(
		name,
		{
			resource: 'transaction',
			operation: 'createPayout',
			subjectId,
			value,
			currency: 'USD',
			exchangeCurrency: 'BRL',
			fromBankAccountId: ACCOUNTS.usdCashOut,
			toBankAccountId: ACCOUNTS.brlCustomer,
			requestOptions,
		},
		settings,
	);

/**
 * One payout, then two side by side (`values`) under Retry On Fail at n8n's default 1 s, the
 * node's request timeout `timeout` ms. @param {string} name @param {string} subjectId
 * @param {[string, string, string]} values @param {number} [timeout]
 */
const lateCommitWorkflow = (name, subjectId, values, timeout) =>
	chainWorkflow({
		name,
		steps: [
			codeStep('One', 'return [{ json: {} }];'),
			payout('Earlier payout', subjectId, values[0], { executeOnce: true }),
			codeStep(
				'Two',
				`return [{ json: { value: '${values[1]}' } }, { json: { value: '${values[2]}' } }];`,
			),
			payout(
				'FacilitaPay',
				subjectId,
				'={{ $json.value }}',
				{ retryOnFail: true, maxTries: 2, waitBetweenTries: 1000 },
				{ concurrency: 2, ...(timeout ? { timeout } : {}) },
			),
		],
	});

describeE2e(
	'A payout FacilitaPay writes after its gateway answered 504 or never answered (real n8n 2.x)',
	() => {
		let subjectId = '';
		/** @type {any} */ let workflow;
		/** @type {any} */ let slowWorkflow;

		beforeAll(async () => {
			requirePieces(sharedState(), ['sandbox', 'node']);
			const seed = (Date.now() % 100000) + 41000;
			const person = samplePerson(seed, `Late Commit ${seed}`, { email: null, complete: false });
			subjectId = (await createPerson(person)).id;
			workflow = lateCommitWorkflow('e2e money: late commit under Retry On Fail', subjectId, [
				'41.00',
				'41.01',
				'41.02',
			]);
			// FacilitaPay answers slowly: no answer within the node's 2 s timeout.
			slowWorkflow = lateCommitWorkflow(
				'e2e money: no answer, late commit, under Retry On Fail',
				subjectId,
				['42.00', '42.01', '42.02'],
				2000,
			);
			await importWorkflows([workflow, slowWorkflow]);
		}, CLI_TIMEOUT);

		afterEach(async () => {
			await sandboxControl('DELETE', '/faults');
		});

		/**
		 * Runs `flow` with a late_commit fault on the first of the two payouts (`answer`: a 504 after
		 * 300 ms, or none: the node's timeout), written 4 s after it arrived; then FacilitaPay's records.
		 * @param {any} flow @param {'504'|'timeout'} answer @param {[string, string]} values
		 */
		async function lateCommitRun(flow, answer, values) {
			await sandboxControl('POST', '/faults', {
				route: 'POST /api/v1/transactions',
				rate: 1,
				kind: 'late_commit',
				answer,
				ms: 4000,
				answer_ms: 300,
				skip: 1,
				count: 1,
			});
			const mark = await sandboxMark();
			const run = await runWorkflow(flow, { imported: true });
			// FacilitaPay finishes writing what it was sent.
			await new Promise((resolve) => setTimeout(resolve, 5000));
			const sent = (await postedBodies(mark, { route: 'POST /api/v1/transactions' })).map(
				(body) => body?.transaction?.value,
			);
			const held = /** @type {any[]} */ (
				await sandboxData('GET', `/subject/${subjectId}/transactions`)
			).map((transaction) => transaction.value);
			console.log(
				`late commit (${answer}) under Retry On Fail: payout requests ${JSON.stringify(sent)}, held by FacilitaPay ${JSON.stringify(held)}, run: ${run.error?.message ?? 'no error'}`,
			);
			for (const value of values) {
				expect(held.filter((v) => v === value)).toHaveLength(1);
				expect(sent.filter((v) => v === value)).toHaveLength(1);
			}
			expect(run.exitCode).not.toBe(0);
			expect(run.error?.message).toMatch(/^Outcome unknown \(item [01]\): Its earlier try/);
			expect(run.error?.message).toMatch(/FacilitaPay may still be writing it/);
		}

		test(
			'Retry On Fail 1 s after the 504: the payout is not sent again; the run fails as Outcome unknown; FacilitaPay holds each payout once',
			async () => {
				await lateCommitRun(workflow, '504', ['41.01', '41.02']);
			},
			CLI_TIMEOUT,
		);

		test(
			'FacilitaPay answers nothing within the node’s timeout and writes the payout 4 s later: Retry On Fail does not send it again; Outcome unknown; each payout held once',
			async () => {
				await lateCommitRun(slowWorkflow, 'timeout', ['42.01', '42.02']);
			},
			CLI_TIMEOUT,
		);
	},
);
