// Runs the same node parameters through the hand-written imitation of n8n
// (test/integration/lib/harness.mjs) and through n8n-core (test/engine/lib/engine.mjs), against one
// sandbox, and prints what each sent and returned where they differ. Evidence for
// docs/testing-engine.md; not a test. Build first. Usage: node test/engine/compare-imitation.mjs
import { ACCOUNT_IDS } from '../../sandbox/accounts.mjs';
import { createSandbox } from '../../sandbox/server.mjs';
import { createEngine, stopEngine, TRIGGER_NAME, workflowOf } from './lib/engine.mjs';
import { sandboxCredentials } from './lib/sandbox.mjs';

const { runAction } = await import('../integration/lib/harness.mjs');

const sandbox = await createSandbox({ port: 0 });
const url = await sandbox.listen();
const control = async (method, route) =>
	(await (await fetch(`${url}/_sandbox${route}`, { method })).json()).data;

const pix =
	(extra = {}) =>
	() => ({
		resource: 'transaction',
		operation: 'createDynamicPix',
		subjectId: { __rl: true, mode: 'id', value: SUBJECT },
		value: '25.00',
		fromBankAccountId: ACCOUNT_IDS.brlPixExclusive,
		toBankAccountId: ACCOUNT_IDS.brlCustomer,
		exchangeCurrency: 'BRL',
		dynamicPixExpiresAt: new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
		...extra,
	});
const person =
	(extra = {}) =>
	() => ({
		resource: 'subject',
		operation: 'create',
		documentType: 'cpf',
		documentNumber: '39053344705',
		socialName: 'Maria da Silva',
		fiscalCountry: 'BR',
		additionalFields: {},
		...extra,
	});
/** Maria, registered through the node on n8n-core after each reset: whom the PIX cases charge. */
let SUBJECT;
async function registerMaria() {
	const engine = await createEngine({ credentials: { facilitaPayApi: sandboxCredentials(url) } });
	const run = await engine.run(workflowOf([{ name: 'Register', parameters: person()() }]));
	SUBJECT = run.nodes.Register.items[0].json.id;
	await control('DELETE', '/requests');
}
const withoutKey = (parameters, key) => () => {
	const copy = { ...parameters() };
	delete copy[key];
	return copy;
};

const CASES = [
	{ title: 'Resource locator (By ID)', parameters: pix() },
	{
		title: 'Expires At left out (default is an expression)',
		parameters: withoutKey(pix(), 'dynamicPixExpiresAt'),
	},
	{ title: 'Exchange Currency left out', parameters: withoutKey(pix(), 'exchangeCurrency') },
	{
		title: 'Expression in a locator: {{ $json.subject }}',
		parameters: pix({ subjectId: { __rl: true, mode: 'id', value: '={{ $json.subject }}' } }),
		items: () => [{ json: { subject: SUBJECT } }],
	},
	{
		title: 'Expression in a field: {{ $json.amount }} (a number)',
		parameters: pix({ value: '={{ $json.amount }}' }),
		items: [{ json: { amount: 25.5 } }],
	},
	{
		title: 'Subject locator left empty',
		parameters: pix({ subjectId: { __rl: true, mode: 'id', value: '' } }),
	},
	{
		title: 'Subject locator not a UUID',
		parameters: pix({ subjectId: { __rl: true, mode: 'id', value: 'abc' } }),
	},
	{
		title: 'Bad CPF, continue on fail (regular output)',
		parameters: person({ documentNumber: '={{ $json.cpf }}' }),
		items: [{ json: { cpf: '39053344705' } }, { json: { cpf: '23100299900' } }],
		onError: 'continueRegularOutput',
	},
	{
		title: 'Bad CPF, continue on fail (error output)',
		parameters: person({ documentNumber: '={{ $json.cpf }}' }),
		items: [{ json: { cpf: '39053344705' } }, { json: { cpf: '23100299900' } }],
		onError: 'continueErrorOutput',
	},
	{ title: 'Bad CPF, stop the workflow', parameters: person({ documentNumber: '23100299900' }) },
];

const itemsOf = (testCase) =>
	typeof testCase.items === 'function' ? testCase.items() : testCase.items;
/** JSON without what differs between any two runs (record IDs, times), cut for reading. */
const short = (value) =>
	JSON.stringify(value)
		?.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
		.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
		.slice(0, 400);
const sentBodies = async () =>
	(await control('GET', '/requests')).map(
		(entry) => `${entry.method} ${entry.url} ${short(entry.body)}`,
	);
const describeItems = (outputs) =>
	outputs.map((items) =>
		items.map((item) =>
			item.json.error ? { error: item.json } : { id: item.json.id, value: item.json.value },
		),
	);

async function imitation(testCase, credentials) {
	try {
		const { output } = await runAction({
			credentials,
			parameters: testCase.parameters(),
			items: itemsOf(testCase),
			continueOnFail: testCase.onError !== undefined,
		});
		return { outputs: short(describeItems([output])) };
	} catch (error) {
		return { error: `${error.name}: ${error.message}` };
	}
}

async function engine(testCase, credentials) {
	const run = await (
		await createEngine({ credentials: { facilitaPayApi: credentials } })
	).run(
		workflowOf(
			[{ name: 'FacilitaPay', parameters: testCase.parameters(), onError: testCase.onError }],
			{
				pinData: testCase.items ? { [TRIGGER_NAME]: itemsOf(testCase) } : undefined,
			},
		),
	);
	const node = run.nodes.FacilitaPay;
	if (node?.error) return { error: `${node.error.name}: ${node.error.message}` };
	return node
		? {
				outputs: short(describeItems(node.outputs)),
				error: node.error && `${node.error.name}: ${node.error.message}`,
			}
		: { error: `${run.error?.name}: ${run.error?.message} (node not run)` };
}

for (const testCase of CASES) {
	const result = {};
	for (const [label, runner] of [
		['imitation', imitation],
		['n8n-core', engine],
	]) {
		await control('POST', '/reset');
		await registerMaria();
		const outcome = await runner(testCase, sandboxCredentials(url));
		result[label] = { ...outcome, sent: await sentBodies() };
	}
	const same = JSON.stringify(result.imitation) === JSON.stringify(result['n8n-core']);
	console.log(`\n## ${testCase.title}: ${same ? 'same' : 'DIFFERENT'}`);
	if (!same) console.log(JSON.stringify(result, null, 1));
}
await sandbox.close();
await stopEngine();
