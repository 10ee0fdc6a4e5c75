/**
 * A small but valid PDF 1.4 (one page, Helvetica text lines) with a correct xref table.
 * @param {string[]} lines
 * @returns {Buffer}
 */
export function renderPdf(lines) {
	const esc = (text) =>
		String(text)
			.replace(/[^\x20-\x7e]/g, '?')
			.replace(/([()\\])/g, '\\$1');
	let content = 'BT /F1 12 Tf 50 780 Td 16 TL\n';
	for (const line of lines) content += `(${esc(line)}) Tj T*\n`;
	content += 'ET\n';
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
		`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
	];
	let out = '%PDF-1.4\n';
	const offsets = [];
	objects.forEach((body, index) => {
		offsets.push(Buffer.byteLength(out, 'latin1'));
		out += `${index + 1} 0 obj\n${body}\nendobj\n`;
	});
	const xref = Buffer.byteLength(out, 'latin1');
	out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
	out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(out, 'latin1');
}
