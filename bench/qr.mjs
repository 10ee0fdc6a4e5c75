// QR code image cost: µs per encode (matrix) and per encode + SVG of a 200-character dynamic
// BR Code, using the compiled dist. Run after `npm run build`: `node bench/qr.mjs`.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { encodeQr, qrToSvg } = require('../dist/nodes/FacilitaPay/qr/index.js');
const { crc16CcittFalse } = require('../dist/nodes/FacilitaPay/validation/pix.js');
const { dynamicBrCode } = require('../test/fixtures/brCode.js');

// A dynamic BR Code of exactly 200 characters: its txid fills what the other fields leave.
const fields = {
	location: 'qrcodes-pix.facilitapay.com/v2/cobv/9d36b84fc70b478fb95c',
	amount: '150.00',
	merchant: 'FACILITAPAY INTERMEDIACAO',
};
const withoutTxid = dynamicBrCode(crc16CcittFalse, { ...fields, txid: '' });
const code = dynamicBrCode(crc16CcittFalse, {
	...fields,
	txid: 'X'.repeat(200 - withoutTxid.length),
});

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
