import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { documentSchema } from '../../schemas/subject';
import { checkUuid } from '../../validation/uuid';
import { OPTIONS_COLLECTION, subjectIdField } from '../common/fields';
import { invalidInput, requireValid, validateBody } from '../common/input';
import { answerAsJson } from '../common/output';
import { sendOnce } from '../common/sendOnce';
import type { ItemWork, MoneyDeclaration } from '../node.type';
import { locatorValue } from '../common/locator';
import { checkDocumentFile, DOCUMENT_FILE_TYPES, DOCUMENT_LABELS } from '../../validation/files';
import { nowhere } from '../../money';

const LABEL_NAMES: Record<string, string> = {
	'address-proof': 'Address Proof',
	'cpf-number': 'CPF Number',
	'person-cpf': 'Person CPF',
	'revenue-tax-declaration': 'Revenue Tax Declaration',
	'rg-number': 'RG Number',
	'rg-photo': 'RG Photo',
};

const FILE_TYPES = Object.entries(DOCUMENT_FILE_TYPES)
	.map(([value, type]) => ({ name: type.name, value }))
	.sort((a, b) => a.name.localeCompare(b.name));

const properties: INodeProperties[] = [
	subjectIdField(),
	{
		displayName: 'Labels',
		name: 'labels',
		type: 'multiOptions',
		required: true,
		options: DOCUMENT_LABELS.map((label) => ({ name: LABEL_NAMES[label] ?? label, value: label })),
		default: [],
		description: 'Keywords that describe the document',
	},
	{
		displayName: 'File Source',
		name: 'source',
		type: 'options',
		options: [
			{
				name: 'Binary Field',
				value: 'binary',
				description: 'A file from a previous node (form upload, Read File, HTTP Request…)',
			},
			{ name: 'Public URL', value: 'url', description: 'FacilitaPay downloads the file itself' },
		],
		default: 'binary',
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the input binary field containing the file to upload',
		displayOptions: { show: { source: ['binary'] } },
	},
	{
		displayName: 'File URL',
		name: 'fileUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/documents/proof.pdf',
		description: 'Public URL starting with http:// or https://',
		displayOptions: { show: { source: ['url'] } },
	},
	{
		displayName: 'File Type',
		name: 'fileType',
		type: 'options',
		required: true,
		options: FILE_TYPES,
		default: 'application/pdf',
		description: 'MIME type of the file at the URL; it must match the file’s real content',
		displayOptions: { show: { source: ['url'] } },
	},
	{
		...OPTIONS_COLLECTION,
		displayOptions: { show: { source: ['binary'] } },
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. proof-of-address.pdf',
				description:
					'Name to store the file under, with an extension. Defaults to the binary file’s name.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['subject'], operation: ['uploadDocument'] } },
	properties,
);

export async function prepare(this: IExecuteFunctions, i: number): Promise<ItemWork> {
	const id = requireValid(this, i, 'Subject ID', checkUuid(locatorValue(this, 'subjectId', i)));
	const labels = this.getNodeParameter('labels', i, []) as string[];
	const source = this.getNodeParameter('source', i) as string;
	let raw: IDataObject;
	if (source === 'url') {
		raw = {
			labels,
			file_type: this.getNodeParameter('fileType', i) as string,
			file_url: this.getNodeParameter('fileUrl', i) as string,
		};
	} else {
		const property = this.getNodeParameter('binaryPropertyName', i) as string;
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const binary = this.helpers.assertBinaryData(i, property);
		const bytes = await this.helpers.getBinaryDataBuffer(i, property);
		const fileName = ((options.fileName as string) || binary.fileName || '').trim();
		const file = checkDocumentFile({ bytes, fileName, declaredType: binary.mimeType });
		if (!file.ok) {
			const label = {
				file_data: `File in "${property}"`,
				file_name: 'File Name',
				file_type: 'File Type',
			}[file.field];
			throw invalidInput(this, i, label, file.reason);
		}
		raw = {
			labels,
			file_type: file.fileType,
			file_name: file.fileName,
			file_data: bytes.toString('base64'),
		};
	}
	const document = validateBody(this, i, documentSchema, raw, {
		labels: 'Labels',
		file_url: 'File URL',
	});
	return sendOnce(
		i,
		'POST',
		`/subject/${encodeURIComponent(id)}/documents`,
		{ document: document as IDataObject },
		(data) => [{ json: withoutFileData(answerAsJson(data)) }],
	);
}

/**
 * The answer without a copy of the Base64 file just sent, should the service echo it (up to 20 MB
 * of text in the item, and in an agent's context when the node runs as a tool). The spec does not
 * show this answer; the file is the one in the input item's binary.
 */
export function withoutFileData(json: IDataObject): IDataObject {
	const copy: IDataObject = { ...json };
	delete copy.file_data;
	const document = copy.document;
	if (document && typeof document === 'object' && !Array.isArray(document)) {
		const inner: IDataObject = { ...(document as IDataObject) };
		delete inner.file_data;
		copy.document = inner;
	}
	return copy;
}

/** It creates or moves money; where FacilitaPay keeps its record. */
export const money: MoneyDeclaration = {
	record: () =>
		nowhere(
			'An uploaded document carries no identity FacilitaPay returns. Read the subject (Subject > Get) and look at its documents before uploading it again.',
		),
};
