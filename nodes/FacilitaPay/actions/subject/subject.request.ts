import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ApiRequest } from '../../transport';
import { compact, jsonParameter } from '../common/input';
import { answerAsJson } from '../common/output';
import type { ItemWork } from '../node.type';

/**
 * Reads the Documents (JSON) field of a subject's fields in place: parsed, and left out when it is
 * an empty list (FacilitaPay would otherwise receive `documents: []`).
 */
export function readDocuments(ctx: IExecuteFunctions, itemIndex: number, fields: IDataObject) {
	if (fields.documents === undefined) return;
	fields.documents = jsonParameter(
		ctx,
		itemIndex,
		'Documents (JSON)',
		fields.documents,
	) as IDataObject[];
	if (Array.isArray(fields.documents) && fields.documents.length === 0) delete fields.documents;
}

/**
 * The request that registers or changes a subject (`{ person }` or `{ company }`), answered with the
 * subject. Documents are appended on every send, so a request with documents is never repeated.
 */
export function subjectWork(
	itemIndex: number,
	request: Pick<ApiRequest, 'method' | 'path'>,
	key: 'person' | 'company',
	checked: IDataObject,
	known?: IDataObject,
): ItemWork {
	const documents = checked.documents;
	return {
		request: {
			...request,
			body: { [key]: compact(checked) },
			retry: Array.isArray(documents) && documents.length > 0 ? 'sendOnce' : 'safe',
			itemIndex,
		},
		output: (data) => [{ json: answerAsJson(data, known) }],
	};
}
