// Bad input in a real n8n 2.x run: three people, the second (item 1) with a CPF whose check digits
// are wrong. Without Continue On Fail the run stops with a readable error naming the field and the
// item, and nothing is sent for that item; with it (onError: continueRegularOutput) the other two
// people are registered and the bad item carries the error text.
import {
	CLI_TIMEOUT,
	actionStep,
	chainWorkflow,
	codeStep,
	describeE2e,
	importWorkflows,
	requirePieces,
	postedBodies,
	runWorkflow,
	sandboxMark,
	sharedState,
	validCpf,
} from './lib/n8n-e2e.mjs';

/** A CPF of the right length whose last check digit is wrong. @param {string} cpf */
const breakCheckDigit = (cpf) => `${cpf.slice(0, 10)}${(Number(cpf[10]) + 1) % 10}`;

describeE2e('Bad input in a real n8n 2.x run', () => {
	const seed = (Date.now() % 100000) + 11000;
	const people = [
		{ document_number: validCpf(seed), name: `Bad Input A ${seed}` },
		{ document_number: breakCheckDigit(validCpf(seed + 1)), name: `Bad Input B ${seed}` },
		{ document_number: validCpf(seed + 2), name: `Bad Input C ${seed}` },
	];
	const steps = (/** @type {object} */ settings) => [
		codeStep('People', `return ${JSON.stringify(people.map((json) => ({ json })))};`),
		actionStep(
			'FacilitaPay',
			{
				resource: 'subject',
				operation: 'create',
				documentType: 'cpf',
				documentNumber: '={{ $json.document_number }}',
				socialName: '={{ $json.name }}',
				fiscalCountry: 'BR',
			},
			settings,
		),
	];
	const stopping = chainWorkflow({ steps: steps({}), name: 'e2e bad input: stop on error' });
	const continuing = chainWorkflow({
		steps: steps({ onError: 'continueRegularOutput' }),
		name: 'e2e bad input: continue',
	});

	beforeAll(async () => {
		requirePieces(sharedState(), ['sandbox', 'node']);
		await importWorkflows([stopping, continuing]);
	}, CLI_TIMEOUT);

	/** The people the sandbox was asked to create since the mark (their document numbers). @param {number} mark */
	const creationsSince = async (mark) =>
		(await postedBodies(mark, { pathPrefix: '/subject/people' })).map(
			(body) => body?.person?.document_number,
		);

	test(
		'without Continue On Fail the run fails with a message naming "Document Number" and item 1, and nothing is sent for any item',
		async () => {
			const mark = await sandboxMark();

			const run = await runWorkflow(stopping, { imported: true });

			expect(run.exitCode).not.toBe(0);
			expect(run.error).not.toBeNull();
			expect(run.error.message).toMatch(/Document Number/);
			expect(run.error.message).toMatch(/\(item 1\)/);
			expect(run.error.message).toMatch(/check digit/i);
			const sent = await creationsSince(mark);
			// Every item is checked before the first request: nothing at all was sent.
			expect(sent).toEqual([]);
			expect(run.error.description).toMatch(/Nothing was sent to FacilitaPay for any item/);
		},
		CLI_TIMEOUT,
	);

	test(
		'with Continue On Fail the two good people are registered and item 1 carries the error text',
		async () => {
			const mark = await sandboxMark();

			const run = await runWorkflow(continuing, { imported: true });

			expect(run.exitCode).toBe(0);
			expect(run.items).toHaveLength(3);
			expect(run.items[0]).toMatchObject({
				document_number: people[0].document_number,
				social_name: people[0].name,
			});
			expect(run.items[1]).toEqual(
				expect.objectContaining({
					error: expect.stringMatching(/^Invalid Document Number \(item 1\): .*check digit/i),
				}),
			);
			expect(run.items[1].description).toMatch(/Nothing was sent/i);
			expect(run.items[2]).toMatchObject({
				document_number: people[2].document_number,
				social_name: people[2].name,
			});
			expect(await creationsSince(mark)).toEqual([
				people[0].document_number,
				people[2].document_number,
			]);
		},
		CLI_TIMEOUT,
	);
});
