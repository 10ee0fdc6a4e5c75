import type { IDataObject } from 'n8n-workflow';

import { type Candidate, CLOCK_SKEW_MS, decide, type FindSentResult, judge } from './candidates';
import { type Read, readOne, required } from './reads';
import { type Comparison, compareText, filled, isObject, safeDecode, textOf } from './records';

export async function findDocument(
	encodedSubjectId: string,
	document: IDataObject,
	sinceMs: number,
	taken: Set<string>,
	read: Read,
): Promise<FindSentResult> {
	const subjectId = safeDecode(encodedSubjectId);
	const labels = Array.isArray(document.labels)
		? document.labels.map((label) => textOf(label)?.toLowerCase())
		: [];
	const byUrl = filled(document.file_url);
	const input = required(
		{
			labels: labels.length > 0 && labels.every((label) => label !== undefined) ? 'ok' : undefined,
			file_type: textOf(document.file_type),
			...(byUrl
				? { file_url: textOf(document.file_url) }
				: { file_name: textOf(document.file_name) }),
		},
		'document upload',
	);
	if ('cannotTell' in input) return input;
	const fields = input.values;
	const labelKey = [...new Set(labels)].sort().join('\n');
	const what = `the documents of subject ${subjectId}`;
	const check =
		'Check them (Subject > Get, or the FacilitaPay dashboard) before uploading the document again.';
	const answer = await readOne(read, `/subject/people/${encodedSubjectId}`, `subject ${subjectId}`);
	if ('problem' in answer) {
		return {
			cannotTell: `Whether the document was uploaded is unknown: ${answer.problem} (A company subject cannot be read at /subject/people.) ${check}`,
		};
	}
	const documents = answer.record.documents;
	if (!Array.isArray(documents)) {
		return {
			cannotTell: `Whether the document was uploaded is unknown: subject ${subjectId} shows no list of documents. ${check}`,
		};
	}
	const start = sinceMs - CLOCK_SKEW_MS;
	const candidates: Candidate[] = [];
	documents.forEach((record, position) => {
		if (!isObject(record)) return;
		let labelCheck: Comparison = 'unreadable';
		if (Array.isArray(record.labels)) {
			const shown = record.labels.map((label) => textOf(label)?.toLowerCase());
			if (shown.every((label) => label !== undefined)) {
				labelCheck = [...new Set(shown)].sort().join('\n') === labelKey ? 'same' : 'differs';
			}
		}
		const checks: Array<[string, Comparison]> = [
			['labels', labelCheck],
			['file type', compareText(fields.file_type, record.file_type)],
			byUrl
				? ['file URL', compareText(fields.file_url, record.file_url)]
				: ['file name', compareText(fields.file_name, record.file_name)],
		];
		const id = textOf(record.id);
		const candidate = judge(record, position, checks, start, id === undefined ? [] : [id], true);
		if (candidate) candidates.push(candidate);
	});
	return decide(candidates, taken, `this document among ${what}`, check, { notFound: true });
}
