import { binaryItem, runNode } from '../../helpers/executeContext';

describe('Upload Document: the default output stays small', () => {
	const pdf = Buffer.concat([
		Buffer.from('%PDF-1.4\n'),
		Buffer.alloc(4000, 32),
		Buffer.from('%%EOF'),
	]);
	const upload = {
		resource: 'subject',
		operation: 'uploadDocument',
		subjectId: '4b6f3c2a-9d1e-4f7a-8c5b-2e1d0a9f8b7c',
		labels: ['address-proof'],
		source: 'binary',
		binaryPropertyName: 'data',
		options: {},
	};

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
			const { output } = await runNode({
				parameters: upload,
				items: [binaryItem(pdf, 'proof.pdf', 'application/pdf')],
				replies: [{ data: answer }],
			});
			const text = JSON.stringify(output[0].json);
			expect(text).not.toContain(pdf.toString('base64').slice(0, 40));
			expect(text).toContain('doc-1');
			expect(text).toContain('proof.pdf');
		},
	);

	it('Upload Document passes an answer without file data on unchanged', async () => {
		const answer = {
			id: 'doc-2',
			labels: ['address-proof'],
			file_type: 'application/pdf',
			status: 'pending_analysis',
		};
		const { output } = await runNode({
			parameters: upload,
			items: [binaryItem(pdf, 'proof.pdf', 'application/pdf')],
			replies: [{ data: answer }],
		});
		expect(output[0].json).toEqual(answer);
	});
});
