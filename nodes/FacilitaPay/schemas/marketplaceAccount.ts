import { z } from 'zod';

import { checkUuid } from '../validation/uuid';
import { checked } from './checked';

export const MARKETPLACE_LABELS: Record<string, string> = {
	subject_id: 'Subject ID',
	is_subject_account_owner: 'Subject Is Account Owner',
};

/** A yes/no given as a boolean, or as the text "true"/"false" an expression may produce. */
const yesNo = z.union([z.boolean(), z.string()]).transform((raw, ctx) => {
	if (typeof raw === 'boolean') return raw;
	const text = raw.trim().toLowerCase();
	if (text === 'true') return true;
	if (text === 'false') return false;
	ctx.addIssue({ code: z.ZodIssueCode.custom, message: `is "${raw}"; it must be true or false` });
	return z.NEVER;
});

/** `POST /subject/:id/account_request` body, sent only when the user set the option. */
export const accountRequestSchema = z.object({ is_subject_account_owner: yesNo }).strict();

/**
 * `POST /bank/accounts/request` body. The spec lists `is_subject_account_owner` as a string here
 * (a boolean on the authorisation), so it is sent as the text "true" or "false".
 */
export const bankAccountRequestSchema = z
	.object({
		subject_id: checked(checkUuid),
		is_subject_account_owner: yesNo.transform((value) => (value ? 'true' : 'false')).optional(),
	})
	.strict();
