import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { encodeQr, qrToSvg } from '../../qr';
import { errorFromFacts } from '../../transport';
import { serviceTimeInUtc } from '../../validation/dates';
import { parseBrCode } from '../../validation/pix';

/**
 * Adds what a person needs to show the PIX code: the copy-and-paste code itself (`pix_code`,
 * byte for byte what the API returned) and whether its CRC checks out.
 */
export function describePixCode(transaction: IDataObject): IDataObject {
	const code = transaction.dynamic_pix_code;
	if (typeof code !== 'string' || code === '') return {};
	const parsed = parseBrCode(code);
	const meta = transaction.meta as IDataObject | undefined;
	return {
		pix_code: code,
		pix_code_valid: parsed.ok,
		// In UTC with its zone, however FacilitaPay wrote it (`…30.989491` without a zone is UTC).
		...(meta?.dynamic_pix_due_date
			? { pix_expires_at: serviceTimeInUtc(meta.dynamic_pix_due_date) as string }
			: {}),
	};
}

/** The "QR Code Image" switch and its binary field, shared by the operations that output a PIX code. */
export const qrCodeImageFields: INodeProperties[] = [
	{
		displayName: 'QR Code Image',
		name: 'qrCodeImage',
		type: 'boolean',
		default: false,
		description: 'Whether to add an SVG image of the PIX QR code as binary data',
		hint: 'Transactions without a PIX code come out without an image',
	},
	{
		displayName: 'Put QR Code in Field',
		name: 'qrCodeBinaryProperty',
		type: 'string',
		required: true,
		default: 'qrCode',
		hint: 'The name of the output binary field to put the image in',
		displayOptions: { show: { qrCodeImage: [true] } },
	},
];

/**
 * The binary field to put the QR code image in, or undefined when the image is off. Read before
 * the request is sent, so a bad field name never fails after a transaction was created.
 */
export function qrCodeTarget(ctx: IExecuteFunctions, i: number): string | undefined {
	if (!(ctx.getNodeParameter('qrCodeImage', i, false) as boolean)) return undefined;
	const property = String(ctx.getNodeParameter('qrCodeBinaryProperty', i, 'qrCode')).trim();
	if (property === '') {
		throw errorFromFacts(ctx.getNode(), {
			itemIndex: i,
			outcome: 'notSent',
			invalidInput: true,
			head: 'Put QR Code in Field is empty',
			fix: 'Enter the name of the binary field for the QR code image, e.g. qrCode',
		});
	}
	return property;
}

/**
 * The output item of a transaction: `json` plus the PIX code fields and, when `qrProperty` is set
 * and the transaction has a PIX code, an SVG of its QR code (the code's exact bytes, error
 * correction level M, 4-module quiet zone) as binary `pix-<id>.svg`. Without a PIX code the item
 * has no image and no error. The image never fails the item: should the code not fit in a QR
 * code, the item says so in `qr_code_error`.
 */
export async function pixOutputItem(
	ctx: IExecuteFunctions,
	json: IDataObject,
	transaction: IDataObject,
	qrProperty: string | undefined,
): Promise<INodeExecutionData> {
	const pix = describePixCode(transaction);
	const item: INodeExecutionData = { json: { ...json, ...pix } };
	if (qrProperty === undefined || pix.pix_code === undefined) return item;

	let svg: string;
	try {
		svg = qrToSvg(encodeQr(pix.pix_code as string));
	} catch (error) {
		item.json.qr_code_error = `No QR code image: ${(error as Error).message}`;
		return item;
	}
	const id = String(transaction.id ?? '').replace(/[^\w.-]/g, '_');
	const fileName = id === '' ? 'pix.svg' : `pix-${id}.svg`;
	const binary = await ctx.helpers.prepareBinaryData(
		Buffer.from(svg, 'utf8'),
		fileName,
		'image/svg+xml',
	);
	item.binary = { [qrProperty]: binary };
	return item;
}
