import { z } from 'zod';

import { checkCountryCode, isBrazilianCountryCode } from '../validation/address';
import {
	ACCOUNT_TYPES,
	checkBrazilianAccountNumber,
	checkBrazilianBankCode,
	checkBrazilianBranchNumber,
	checkBrazilianOwnerDocument,
} from '../validation/bankAccount';
import { checkCurrency } from '../validation/amount';
import type { Check } from '../validation/result';
import { checked, oneOf, text } from './checked';

/** Labels the user sees for the fields of `bank_account` (the node's parameter names). */
export const BANK_ACCOUNT_LABELS: Record<string, string> = {
	currency: 'Currency',
	'bank.code': 'Bank Code',
	'bank.name': 'Bank Name',
	branch_number: 'Branch Number',
	account_number: 'Account Number',
	owner_document_number: 'Owner Document Number',
	owner_name: 'Owner Name',
	branch_country: 'Branch Country',
	account_type: 'Account Type',
};

/**
 * `bank_account` of `PUT /wires/:id/update_bank_account`. Every field is required (a correction
 * sends the whole account). When the branch country is BR or BRA the bank code, branch, account number
 * and owner document follow the Brazilian rules (see validation/bankAccount.ts).
 */
export const bankAccountSchema = z
	.object({
		currency: checked((raw) => checkCurrency(raw)),
		bank: z.object({
			code: text('the bank code, e.g. 001'),
			name: text('the bank name, e.g. Banco do Brasil'),
		}),
		branch_number: text('the branch number'),
		account_number: text('the account number'),
		owner_document_number: text('the owner’s document number'),
		owner_name: text('the owner’s full name'),
		branch_country: checked(checkCountryCode),
		account_type: oneOf(ACCOUNT_TYPES, 'conta-corrente: checking, poupanca: savings'),
	})
	.superRefine((account, ctx) => {
		if (!isBrazilianCountryCode(account.branch_country)) return;
		const apply = (path: string[], check: (raw: string) => Check, set: (value: string) => void) => {
			const raw = path.reduce<unknown>(
				(object, key) => (object as Record<string, unknown>)[key],
				account,
			);
			if (typeof raw !== 'string') return; // already reported as missing
			const result = check(raw);
			if (result.ok) set(result.value);
			else ctx.addIssue({ code: z.ZodIssueCode.custom, path, message: result.reason });
		};
		apply(['bank', 'code'], checkBrazilianBankCode, (v) => (account.bank.code = v));
		apply(['branch_number'], checkBrazilianBranchNumber, (v) => (account.branch_number = v));
		apply(['account_number'], checkBrazilianAccountNumber, (v) => (account.account_number = v));
		apply(
			['owner_document_number'],
			checkBrazilianOwnerDocument,
			(v) => (account.owner_document_number = v),
		);
	});
