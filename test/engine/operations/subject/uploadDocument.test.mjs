// Subject > Upload Document on n8n's engine: the default output stays small.
import { useOperations } from '../../lib/operations.mjs';
import { SUBJECT_ID } from '../../../fixtures/subjects.js';
import { binaryItem, upload } from './lib.mjs';

const DOCUMENTS = 'POST /subject/:id/documents';

const op = useOperations();

describe('Upload Document: the default output stays small', () => {
	const pdf = Buffer.concat([
		Buffer.from('%PDF-1.4\n'),
		Buffer.alloc(4000, 32),
		Buffer.from('%%EOF'),
	]);
	const uploadParameters = upload();

	it.each([
		[
			'at the top level',
			{
				id: 'doc-1',
				status: 'pending_analysis',
				file_name: 'proof.pdf',
				file_data: pdf.toString('base64'),
			},
		],
		[
			'inside document',
			{
				document: {
					id: 'doc-1',
					status: 'pending_analysis',
					file_name: 'proof.pdf',
					file_data: pdf.toString('base64'),
				},
			},
		],
	])(
		'Upload Document leaves out a Base64 copy of the file the service echoes %s',
		async (_where, answer) => {
			const { items, requests, error } = await op.run({
				parameters: uploadParameters,
				items: [binaryItem(pdf, 'proof.pdf', 'application/pdf')],
				replies: { [DOCUMENTS]: { data: answer } },
			});
			expect(error).toBeUndefined();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ method: 'POST', params: { id: SUBJECT_ID } });
			expect(requests[0].body.document.file_data).toBe(pdf.toString('base64'));
			const text = JSON.stringify(items[0].json);
			expect(text).not.toContain(pdf.toString('base64').slice(0, 40));
			expect(text).toContain('doc-1');
			expect(text).toContain('proof.pdf');
			expect(items[0].pairedItem).toEqual({ item: 0 });
		},
	);

	it('Upload Document passes an answer without file data on unchanged', async () => {
		const answer = {
			id: 'doc-2',
			labels: ['address-proof'],
			file_type: 'application/pdf',
			status: 'pending_analysis',
		};
		const { items } = await op.run({
			parameters: uploadParameters,
			items: [binaryItem(pdf, 'proof.pdf', 'application/pdf')],
			replies: { [DOCUMENTS]: { data: answer } },
		});
		expect(items[0].json).toEqual(answer);
	});
});
