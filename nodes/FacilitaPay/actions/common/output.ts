import type { IDataObject } from 'n8n-workflow';

/**
 * The service's answer as an output item's JSON. An object is passed on as it is; anything else
 * (a bare "ok", a number) is kept under `key`, next to `context` (e.g. the ID the request was for),
 * so the item still says what it is about.
 */
export function answerAsJson(
	data: unknown,
	context: IDataObject = {},
	key = 'result',
): IDataObject {
	if (data && typeof data === 'object') return data as IDataObject;
	return { ...context, [key]: data as IDataObject[keyof IDataObject] };
}
