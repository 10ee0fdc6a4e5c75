import type { IExecuteFunctions } from 'n8n-workflow';

import {
	readDocuments,
	subjectWork,
} from '../../../../nodes/FacilitaPay/actions/subject/subject.request';

// Register Person, Register Company and Update Person send the subject the same way: documents are
// appended at FacilitaPay on every send, so a request carrying any is never sent twice, while one
// without documents may be retried like a read.
const ctx = { getNode: () => ({ name: 'FacilitaPay', type: 'n8n-nodes-facilitapay.facilitaPay' }) };

describe('subjectWork', () => {
	it('a subject with documents is sent at most once', () => {
		const work = subjectWork(3, { method: 'POST', path: '/subject/people' }, 'person', {
			social_name: 'Maria',
			documents: [{ label: 'id_front' }],
		});
		expect(work.request).toEqual({
			method: 'POST',
			path: '/subject/people',
			body: { person: { social_name: 'Maria', documents: [{ label: 'id_front' }] } },
			retry: 'sendOnce',
			itemIndex: 3,
		});
	});

	it('a subject without documents may be retried, and empty fields are left out', () => {
		const work = subjectWork(0, { method: 'POST', path: '/subject/companies' }, 'company', {
			social_name: 'ACME',
			website: '',
		});
		expect(work.request.retry).toBe('safe');
		expect(work.request.body).toEqual({ company: { social_name: 'ACME' } });
	});

	it('the output is the subject; a bare answer keeps the ID the request was for', () => {
		const work = subjectWork(
			0,
			{ method: 'PUT', path: '/subject/people/x' },
			'person',
			{},
			{ id: 'x' },
		);
		const output = (answer: unknown) =>
			work.output.call(ctx as unknown as IExecuteFunctions, answer);
		expect(output({ id: 'x', status: 'approved' })).toEqual([
			{ json: { id: 'x', status: 'approved' } },
		]);
		expect(output('ok')).toEqual([{ json: { id: 'x', result: 'ok' } }]);
	});
});

describe('readDocuments', () => {
	it('parses the Documents (JSON) text and drops an empty list', () => {
		const fields: Record<string, unknown> = { documents: '[{"label":"id_front"}]' };
		readDocuments(ctx as unknown as IExecuteFunctions, 0, fields as never);
		expect(fields.documents).toEqual([{ label: 'id_front' }]);
		const empty: Record<string, unknown> = { documents: '[]' };
		readDocuments(ctx as unknown as IExecuteFunctions, 0, empty as never);
		expect(empty).toEqual({});
	});

	it('names the field and the item when the JSON is broken', () => {
		expect(() =>
			readDocuments(ctx as unknown as IExecuteFunctions, 2, { documents: '[{' } as never),
		).toThrow(/Documents \(JSON\)/);
	});
});
