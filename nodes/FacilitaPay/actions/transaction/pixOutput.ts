import type { IDataObject } from 'n8n-workflow';

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
		...(meta?.dynamic_pix_due_date ? { pix_expires_at: meta.dynamic_pix_due_date } : {}),
	};
}
