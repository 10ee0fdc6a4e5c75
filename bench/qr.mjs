// QR code image cost: µs per encode (matrix) and per encode + SVG of a 200-character dynamic
// BR Code, using the compiled dist. Run after `npm run build`: `node bench/qr.mjs`.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { encodeQr, qrToSvg } = require('../dist/nodes/FacilitaPay/qr/index.js');
const { crc16CcittFalse } = require('../dist/nodes/FacilitaPay/validation/pix.js');

const tlv = (id, value) => `${id}${String(value.length).padStart(2, '0')}${value}`;
let body =
	tlv('00', '01') +
	tlv('01', '12') +
	tlv(
		'26',
		tlv('00', 'br.gov.bcb.pix') +
			tlv('25', 'qrcodes-pix.facilitapay.com/v2/cobv/9d36b84fc70b478fb95c'),
	) +
	tlv('52', '0000') +
	tlv('53', '986') +
	tlv('54', '150.00') +
	tlv('58', 'BR') +
	tlv('59', 'FACILITAPAY INTERMEDIACAO') +
	tlv('60', 'SAO PAULO');
body += tlv('62', tlv('05', 'X'.repeat(200 - body.length - 8 - 8)));
const code = body + '6304' + crc16CcittFalse(body + '6304');

function measure(name, fn, rounds = 2000) {
	for (let i = 0; i < 200; i++) fn();
	const start = process.hrtime.bigint();
	for (let i = 0; i < rounds; i++) fn();
	const micros = Number(process.hrtime.bigint() - start) / 1000 / rounds;
	console.log(`${name}: ${micros.toFixed(0)} µs`);
}

const matrix = encodeQr(code);
console.log(
	`BR Code of ${code.length} characters → ${matrix.length} × ${matrix.length} modules (version ${(matrix.length - 17) / 4}, level M)`,
);
measure('encodeQr', () => encodeQr(code));
measure('encodeQr + qrToSvg', () => qrToSvg(encodeQr(code)));
measure('qrToSvg alone', () => qrToSvg(matrix));
console.log(`SVG size: ${Buffer.byteLength(qrToSvg(matrix))} bytes`);
