// What the Subject and Subscription operation tests share on n8n's engine: parameters as the
// editor saves them (an ID field is a resource locator) and input items as n8n holds them.
import {
	personParameters,
	personUpdateParameters,
	SUBJECT_ID,
} from '../../../fixtures/subjects.js';

/** A resource locator "By ID", as the editor saves a typed ID. */
export const byId = (value) => ({ __rl: true, mode: 'id', value });

const isLocator = (value) => value !== null && typeof value === 'object' && value.__rl === true;

/** Subject > Create or Update (Maria da Silva), see fixtures/subjects.js. */
export const person = (additionalFields = {}, overrides = {}) =>
	personParameters(additionalFields, overrides);

/** Subject > Update of the test subject, its ID in the Subject locator. */
export const update = (updateFields, subjectId = SUBJECT_ID) => ({
	...personUpdateParameters(updateFields),
	subjectId: byId(subjectId),
});

/** A binary item as a previous node (Read File, Form) gives it: in memory, Base64. */
export const binaryItem = (bytes, fileName, mimeType, property = 'data') => ({
	json: {},
	binary: { [property]: { data: bytes.toString('base64'), fileName, mimeType } },
});

/**
 * The parameters `names` written as expressions reading the input item (`={{ $json.<name> }}`),
 * their values moved into that item: how a user meets the node's own check of a value n8n would
 * refuse before the run when typed (an empty required field, an ID the locator's regex refuses).
 * Returns { parameters, items } for `op.run`.
 */
export function fromItem(parameters, names, item = { json: {} }) {
	const out = { ...parameters };
	const json = { ...item.json };
	for (const name of names) {
		const value = parameters[name];
		const expression = `={{ $json[${JSON.stringify(name)}] }}`;
		json[name] = isLocator(value) ? value.value : value;
		out[name] = isLocator(value) ? { ...value, value: expression } : expression;
	}
	return { parameters: out, items: [{ ...item, json }] };
}

/** The names of the top-level parameters left empty (n8n refuses an empty required field). */
export const emptyOnes = (parameters) =>
	Object.keys(parameters).filter((name) => {
		const value = parameters[name];
		return value === '' || (isLocator(value) && value.value === '');
	});

/** The run sent one request, matching `request` (method, route, params…), with `body`. */
export function expectOneRequest(requests, request, body) {
	expect(requests).toHaveLength(1);
	expect(requests[0]).toMatchObject(request);
	expect(requests[0].body).toEqual(body);
}

/** Subject > Upload Document of an address proof, the file from the item's `data` binary. */
export const upload = (overrides = {}) => ({
	resource: 'subject',
	operation: 'uploadDocument',
	subjectId: byId(SUBJECT_ID),
	labels: ['address-proof'],
	source: 'binary',
	binaryPropertyName: 'data',
	options: {},
	...overrides,
});
