// Parameters mapped straight from the item (`{{ $json.field }}`, what dragging a field writes) are
// read from the item without n8n evaluating an expression per item (actions/engine/mapped.ts). On
// n8n's engine, each case runs twice, once through that reading and once with the same mapping
// written so that n8n evaluates it: what leaves, what comes out and the errors must be the same.
import { createRequire } from 'node:module';
import { useOperations } from '../lib/operations.mjs';

const require = createRequire(import.meta.url);
const { personParameters } = require('../../fixtures/subjects.js');

const op = useOperations();
const PEOPLE = 'POST /subject/people';
const created = (request) => ({ data: { id: `s-${request.body.person.document_number}` } });

/** Subject > Create with Document Number and Social Name mapped from the item: `{{ $json.cpf }}`
 * (read from the item), or written so that n8n evaluates it (`{{ $json["cpf"] }}`). */
const person = (viaN8n) =>
	personParameters(
		{},
		{
			documentNumber: viaN8n ? '={{ $json["cpf"] }}' : '={{ $json.cpf }}',
			socialName: viaN8n ? '={{ $json["name"] }}' : '={{ $json.name }}',
		},
	);

/** What a user sees of one run: what left, the items out, the error. */
async function outcome(viaN8n, items) {
	const run = await op.run({ parameters: person(viaN8n), items, replies: { [PEOPLE]: created } });
	return {
		sent: run.requests.map((request) => request.body),
		out: run.items.map((item) => ({ json: item.json, pairedItem: item.pairedItem })),
		error: run.error && { message: run.error.message, description: run.error.description },
	};
}

const cases = {
	'text, punctuated and not': [
		{ json: { cpf: '390.533.447-05', name: 'Maria da Silva' } },
		{ json: { cpf: '52998224725', name: ' João Souza ' } },
	],
	'a number where text is expected': [{ json: { cpf: 52998224725, name: 'João' } }],
	'a boolean': [{ json: { cpf: true, name: 'Maria' } }],
	'a field missing from an item': [
		{ json: { cpf: '390.533.447-05', name: 'Maria' } },
		{ json: { name: 'Sem CPF' } },
	],
	'an object, null, an empty text': [
		{ json: { cpf: { number: '52998224725' }, name: 'Objeto' } },
		{ json: { cpf: null, name: 'Nulo' } },
		{ json: { cpf: '', name: 'Vazio' } },
	],
	'a wrong CPF': [
		{ json: { cpf: '390.533.447-05', name: 'Maria' } },
		{ json: { cpf: '231.002.999-00', name: 'João' } },
	],
};

describe('A field mapped from the item gives what n8n’s expression gives', () => {
	test.each(Object.entries(cases))('%s: the same requests, items and error', async (_, items) => {
		const direct = await outcome(false, items);
		const evaluated = await outcome(true, items);
		expect(direct).toEqual(evaluated);
	});

	test('the values reach FacilitaPay from each item', async () => {
		const { sent, out, error } = await outcome(false, cases['text, punctuated and not']);
		expect(error).toBeUndefined();
		expect(sent.map((body) => body.person)).toEqual([
			expect.objectContaining({ document_number: '39053344705', social_name: 'Maria da Silva' }),
			expect.objectContaining({ document_number: '52998224725', social_name: 'João Souza' }),
		]);
		expect(out.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});
