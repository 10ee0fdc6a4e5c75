import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest } from '../../../../../nodes/FacilitaPay/transport';
import { at, lookup, outcome, service, SUBJECT, titled } from './fixtures';

describe('Document upload: the person’s documents', () => {
	const upload = (document: IDataObject): ApiRequest => ({
		method: 'POST',
		path: `/subject/${SUBJECT}/documents`,
		body: { document },
		retry: 'sendOnce',
	});
	const byData = upload({
		labels: ['rg-photo', 'cpf-number'],
		file_type: 'image/png',
		file_name: 'rg.png',
		file_data: 'iVBORw0KGgo=',
	});
	const byUrl = upload({
		labels: ['address-proof'],
		file_type: 'application/pdf',
		file_url: 'https://example.com/proof.pdf',
	});
	const stored = (fields: IDataObject = {}): IDataObject => ({
		id: 'doc-1',
		labels: ['cpf-number', 'rg-photo'],
		file_type: 'image/png',
		file_name: 'rg.png',
		file_url: null,
		status: 'pending_analysis',
		inserted_at: at(2),
		...fields,
	});
	const person = (documents: unknown) =>
		service({ [`/subject/people/${SUBJECT}`]: () => ({ id: SUBJECT, documents }) });

	it.each(
		titled<IDataObject>([
			['the same labels in another order, type and name', {}, 'found:doc-1'],
			['other labels', { labels: ['rg-photo'] }, 'notFound'],
			['another file name', { file_name: 'other.png' }, 'notFound'],
			['another file type', { file_type: 'image/jpeg' }, 'notFound'],
			['uploaded before the first attempt', { inserted_at: at(-3600) }, 'notFound'],
			['no upload time', { inserted_at: undefined }, 'cannotTell'],
			['no labels', { labels: undefined }, 'cannotTell'],
		]),
	)('a document: %s', async (_name, fields, expected) => {
		const { read, sent } = person([stored(fields)]);
		expect(outcome(await lookup(byData, read))).toBe(expected);
		expect(sent).toEqual([{ method: 'GET', path: `/subject/people/${SUBJECT}`, retry: 'safe' }]);
	});

	it('a document sent by URL is matched on its URL', async () => {
		const document = stored({
			id: 'doc-2',
			labels: ['address-proof'],
			file_type: 'application/pdf',
			file_name: null,
			file_url: 'https://example.com/proof.pdf',
		});
		expect(outcome(await lookup(byUrl, person([document]).read))).toBe('found:doc-2');
		const other = { ...document, file_url: 'https://example.com/other.pdf' };
		expect(outcome(await lookup(byUrl, person([other]).read))).toBe('notFound');
	});

	it('a subject that cannot be read (a company) or shows no documents cannot settle it', async () => {
		expect(await lookup(byData, service({}).read)).toEqual({
			cannotTell: expect.stringContaining('A company subject cannot be read'),
		});
		expect(outcome(await lookup(byData, person(undefined).read))).toBe('cannotTell');
	});
});
