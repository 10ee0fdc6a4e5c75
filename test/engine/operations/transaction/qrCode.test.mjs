// QR Code Image on Transaction > Create Dynamic PIX and Get, on n8n's engine, against a FacilitaPay
// scripted by route; the SVG in the item's binary data is read back as a phone would.
import brCodes from '../../../fixtures/brCode.js';
import transactions from '../../../fixtures/transactions.js';
import { skipRetryWaits, useOperations } from '../../lib/operations.mjs';
import { dist, scan } from './lib.mjs';

const { dynamicBrCode } = brCodes;
const { dynamicPixParameters } = transactions;
const CREATE = 'POST /transactions';
const GET = 'GET /transactions/:id';

const op = useOperations();
skipRetryWaits();

const { crc16CcittFalse } = dist('nodes/FacilitaPay/validation/pix.js');

/** A dynamic BR Code of 150.00 BRL, with its CRC. */
const brCode = () =>
	dynamicBrCode(crc16CcittFalse, {
		location: 'qrcodes-pix.facilitapay.com/v2/cobv/9d36b84fc70b478fb95c12729b90ca25',
		amount: '150.00',
		txid: 'FP9D36B84FC70B',
	});

const createPix = (overrides = {}) =>
	dynamicPixParameters({
		dynamicPixExpiresAt: new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
		...overrides,
	});

const get = (overrides = {}) => ({
	resource: 'transaction',
	operation: 'get',
	transactionId: 'tx-1',
	simplify: true,
	...overrides,
});

describe('QR Code Image on Transaction > Create Dynamic PIX and Get', () => {
	it('Create Dynamic PIX adds an SVG of the QR code that scans to exactly the dynamic_pix_code', async () => {
		const code = brCode();
		const { items, requests, error } = await op.run({
			parameters: createPix({ qrCodeImage: true, qrCodeBinaryProperty: 'qrCode' }),
			replies: { [CREATE]: { data: { id: 'tx-1', status: 'pending', dynamic_pix_code: code } } },
		});
		expect(error).toBeUndefined();
		expect(requests.map((request) => request.route)).toEqual([CREATE]);
		expect(items[0].json).toMatchObject({ id: 'tx-1', pix_code: code, pix_code_valid: true });
		expect(items[0].binary?.qrCode).toMatchObject({
			fileName: 'pix-tx-1.svg',
			mimeType: 'image/svg+xml',
		});
		const { svg, quietZone, decoded } = scan(items[0]);
		expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
		expect(quietZone).toBe(4);
		expect(decoded.bytes.equals(Buffer.from(code, 'utf8'))).toBe(true);
	});

	it('Get puts the image in the field the user named, next to the simplified JSON', async () => {
		const code = brCode();
		const { items, requests } = await op.run({
			parameters: get({ qrCodeImage: true, qrCodeBinaryProperty: ' pixImage ' }),
			replies: {
				[GET]: {
					data: {
						id: 'tx-1',
						status: 'pending',
						to_bank_account: { id: 'a' },
						dynamic_pix_code: code,
					},
				},
			},
		});
		expect(requests[0]).toMatchObject({ method: 'GET', route: GET, params: { id: 'tx-1' } });
		expect(Object.keys(items[0].binary ?? {})).toEqual(['pixImage']);
		expect(items[0].binary.pixImage.fileName).toBe('pix-tx-1.svg');
		expect(scan(items[0], 'pixImage').decoded.text).toBe(code);
		expect(items[0].json).toMatchObject({ id: 'tx-1', pix_code: code });
		expect(items[0].json.to_bank_account).toBeUndefined();
	});

	it('QR Code Image on without Put QR Code in Field in the workflow: n8n fills its default, qrCode', async () => {
		const { items } = await op.run({
			parameters: get({ qrCodeImage: true }),
			replies: { [GET]: { data: { id: 'tx-1', dynamic_pix_code: brCode() } } },
		});
		expect(Object.keys(items[0].binary ?? {})).toEqual(['qrCode']);
		expect(scan(items[0]).decoded.text).toBe(brCode());
	});

	it('encodes the code exactly as the API returned it, even when its checksum is wrong', async () => {
		const damaged = brCode().slice(0, -4) + '0000';
		const { items } = await op.run({
			parameters: get({ qrCodeImage: true, qrCodeBinaryProperty: 'qrCode' }),
			replies: { [GET]: { data: { id: 'tx-1', dynamic_pix_code: damaged } } },
		});
		expect(items[0].json.pix_code_valid).toBe(false);
		expect(scan(items[0]).decoded.text).toBe(damaged);
	});

	it.each([
		['Create Dynamic PIX', createPix()],
		['Get', get()],
	])('%s adds no image when QR Code Image is off (the default)', async (_name, parameters) => {
		const { items, error } = await op.run({
			parameters,
			replies: {
				[CREATE]: { data: { id: 'tx-1', dynamic_pix_code: brCode() } },
				[GET]: { data: { id: 'tx-1', dynamic_pix_code: brCode() } },
			},
		});
		expect(error).toBeUndefined();
		expect(items[0].binary).toBeUndefined();
		expect(items[0].json.pix_code).toBe(brCode());
	});

	it('outputs a transaction without a PIX code (a boleto) unchanged, without image and without error', async () => {
		const { items, error } = await op.run({
			parameters: get({ qrCodeImage: true, qrCodeBinaryProperty: 'qrCode' }),
			replies: {
				[GET]: {
					data: {
						id: 'b-1',
						status: 'pending',
						boleto_barcode: '23790000000000000000000000000000000000000000',
					},
				},
			},
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].binary).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: 'b-1', status: 'pending' });
		expect(items[0].json.pix_code).toBeUndefined();
		expect(items[0].json.qr_code_error).toBeUndefined();
	});

	it('keeps the created transaction when its code is too long for a QR code, and says why', async () => {
		const tooLong = '0'.repeat(2400);
		const { items, error } = await op.run({
			parameters: createPix({ qrCodeImage: true, qrCodeBinaryProperty: 'qrCode' }),
			replies: { [CREATE]: { data: { id: 'tx-1', dynamic_pix_code: tooLong } } },
		});
		expect(error).toBeUndefined();
		expect(items[0].binary).toBeUndefined();
		expect(items[0].json).toMatchObject({ id: 'tx-1', pix_code: tooLong });
		expect(items[0].json.qr_code_error).toBe(
			'No QR code image: The text has 2400 bytes; a QR code (level M) holds at most 2331',
		);
	});

	it('refuses an empty Put QR Code in Field before creating anything', async () => {
		const { error, requests, items } = await op.run({
			parameters: createPix({ qrCodeImage: true, qrCodeBinaryProperty: '  ' }),
			replies: { [CREATE]: { data: { id: 'tx-1' } } },
		});
		expect(requests).toHaveLength(0);
		expect(items).toHaveLength(0);
		expect(error.message).toBe('Put QR Code in Field is empty (item 0)');
	});

	it('shows Put QR Code in Field (default qrCode) only when QR Code Image is on, for both operations', () => {
		const { FacilitaPay } = dist('nodes/FacilitaPay/FacilitaPay.node.js');
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
			expect(field.displayOptions?.show).toMatchObject({
				qrCodeImage: [true],
				operation: [operation],
			});
		}
	});
});
