import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { FacilitaPay } from '../../../../nodes/FacilitaPay/FacilitaPay.node';
import { crc16CcittFalse } from '../../../../nodes/FacilitaPay/validation/pix';
import { runNode, runNodeExpectingError } from '../../helpers/executeContext';
import { skipRetryWaits } from '../../helpers/retryWaits';
import { decodeMatrix, svgToMatrix } from '../../helpers/qrImage';
import { dynamicBrCode } from '../../../fixtures/brCode';
import { dynamicPixParameters } from '../../../fixtures/transactions';

skipRetryWaits();

/** A dynamic BR Code of 150.00 BRL, with its CRC. */
const brCode = () =>
	dynamicBrCode(crc16CcittFalse, {
		location: 'qrcodes-pix.facilitapay.com/v2/cobv/9d36b84fc70b478fb95c12729b90ca25',
		amount: '150.00',
		txid: 'FP9D36B84FC70B',
	});

const createPix = (overrides: IDataObject = {}) =>
	dynamicPixParameters({
		dynamicPixExpiresAt: new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
		...overrides,
	});

const get = (overrides: Record<string, unknown> = {}) => ({
	resource: 'transaction',
	operation: 'get',
	transactionId: 'tx-1',
	simplify: true,
	...overrides,
});

/** The text a phone reads from the SVG image in a binary field. */
function scan(item: INodeExecutionData, property = 'qrCode') {
	const svg = Buffer.from(item.binary![property].data, 'base64').toString('utf8');
	const drawn = svgToMatrix(svg);
	return { svg, quietZone: drawn.quietZone, decoded: decodeMatrix(drawn.matrix) };
}

describe('QR Code Image on Transaction > Create Dynamic PIX and Get', () => {
	it('Create Dynamic PIX adds an SVG of the QR code that scans to exactly the dynamic_pix_code', async () => {
		const code = brCode();
		const { output } = await runNode({
			parameters: createPix({ qrCodeImage: true, qrCodeBinaryProperty: 'qrCode' }),
			replies: [{ data: { id: 'tx-1', status: 'pending', dynamic_pix_code: code } }],
		});
		expect(output[0].json).toMatchObject({ id: 'tx-1', pix_code: code, pix_code_valid: true });
		expect(output[0].binary?.qrCode).toMatchObject({
			fileName: 'pix-tx-1.svg',
			mimeType: 'image/svg+xml',
		});
		const { svg, quietZone, decoded } = scan(output[0]);
		expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
		expect(quietZone).toBe(4);
		expect(decoded!.bytes.equals(Buffer.from(code, 'utf8'))).toBe(true);
	});

	it('Get puts the image in the field the user named, next to the simplified JSON', async () => {
		const code = brCode();
		const { output } = await runNode({
			parameters: get({ qrCodeImage: true, qrCodeBinaryProperty: ' pixImage ' }),
			replies: [
				{
					data: {
						id: 'tx-1',
						status: 'pending',
						to_bank_account: { id: 'a' },
						dynamic_pix_code: code,
					},
				},
			],
		});
		expect(Object.keys(output[0].binary ?? {})).toEqual(['pixImage']);
		expect(output[0].binary!.pixImage.fileName).toBe('pix-tx-1.svg');
		expect(scan(output[0], 'pixImage').decoded!.text).toBe(code);
		expect(output[0].json).toMatchObject({ id: 'tx-1', pix_code: code });
		expect(output[0].json.to_bank_account).toBeUndefined();
	});

	it('encodes the code exactly as the API returned it, even when its checksum is wrong', async () => {
		const damaged = brCode().slice(0, -4) + '0000';
		const { output } = await runNode({
			parameters: get({ qrCodeImage: true, qrCodeBinaryProperty: 'qrCode' }),
			replies: [{ data: { id: 'tx-1', dynamic_pix_code: damaged } }],
		});
		expect(output[0].json.pix_code_valid).toBe(false);
		expect(scan(output[0]).decoded!.text).toBe(damaged);
	});

	it.each([
		['Create Dynamic PIX', createPix()],
		['Get', get()],
	])('%s adds no image when QR Code Image is off (the default)', async (_name, parameters) => {
		const { output } = await runNode({
			parameters,
			replies: [{ data: { id: 'tx-1', dynamic_pix_code: brCode() } }],
		});
		expect(output[0].binary).toBeUndefined();
		expect(output[0].json.pix_code).toBe(brCode());
	});

	it('outputs a transaction without a PIX code (a boleto) unchanged, without image and without error', async () => {
		const { output } = await runNode({
			parameters: get({ qrCodeImage: true, qrCodeBinaryProperty: 'qrCode' }),
			replies: [
				{
					data: {
						id: 'b-1',
						status: 'pending',
						boleto_barcode: '23790000000000000000000000000000000000000000',
					},
				},
			],
		});
		expect(output).toHaveLength(1);
		expect(output[0].binary).toBeUndefined();
		expect(output[0].json).toMatchObject({ id: 'b-1', status: 'pending' });
		expect(output[0].json.pix_code).toBeUndefined();
		expect(output[0].json.qr_code_error).toBeUndefined();
	});

	it('keeps the created transaction when its code is too long for a QR code, and says why', async () => {
		const tooLong = '0'.repeat(2400);
		const { output } = await runNode({
			parameters: createPix({ qrCodeImage: true, qrCodeBinaryProperty: 'qrCode' }),
			replies: [{ data: { id: 'tx-1', dynamic_pix_code: tooLong } }],
		});
		expect(output[0].binary).toBeUndefined();
		expect(output[0].json).toMatchObject({ id: 'tx-1', pix_code: tooLong });
		expect(output[0].json.qr_code_error).toBe(
			'No QR code image: The text has 2400 bytes; a QR code (level M) holds at most 2331',
		);
	});

	it('refuses an empty Put QR Code in Field before creating anything', async () => {
		const { error, requests } = await runNodeExpectingError({
			parameters: createPix({ qrCodeImage: true, qrCodeBinaryProperty: '  ' }),
		});
		expect(requests).toHaveLength(0);
		expect(error.message).toBe('Put QR Code in Field is empty (item 0)');
	});

	it('shows Put QR Code in Field (default qrCode) only when QR Code Image is on, for both operations', () => {
		const { properties } = new FacilitaPay().description;
		for (const operation of ['createDynamicPix', 'get']) {
			const forOperation = properties.filter((p) =>
				p.displayOptions?.show?.operation?.includes(operation),
			);
			const image = forOperation.find((p) => p.name === 'qrCodeImage');
			const field = forOperation.find((p) => p.name === 'qrCodeBinaryProperty');
			expect(image).toMatchObject({
				displayName: 'QR Code Image',
				type: 'boolean',
				default: false,
				description: 'Whether to add an SVG image of the PIX QR code as binary data',
			});
			expect(field).toMatchObject({ displayName: 'Put QR Code in Field', default: 'qrCode' });
			expect(field!.displayOptions?.show).toMatchObject({
				qrCodeImage: [true],
				operation: [operation],
			});
		}
	});
});
