import { z } from 'zod';

import { checkCountryCode, isBrazilianCountryCode } from '../validation/address';
import {
	ACCOUNT_TYPES,
	checkBrazilianAccountNumber,
	checkBrazilianBankCode,
	checkBrazilianBranchNumber,
} from '../validation/bankAccount';
import { checkDocumentNumber, DOCUMENT_TYPES } from '../validation/documents';
import { checkCurrency, CURRENCIES } from '../validation/amount';
import { checkPixKey, type PixKeyKind } from '../validation/pix';
import { type Check } from '../validation/result';
import { asciiUpperCase } from '../validation/text';
import { checked, oneOf, optionalText, text } from './checked';

/**
 * A customer's bank account, `POST /subject/:id/bank_accounts` (body `bank_account`): not in the
 * spec (it says endpoints to register customer accounts are not shown); the endpoint and the
 * fields come from FacilitaPay's public documentation (real bank accounts page), whose Brazilian
 * example was readable but whose per-country rules and required flags were not. What is certain:
 * the account needs either bank details or a PIX key (a payout uses PIX when only a key is
 * registered, TED when both are), an owner, and a currency; the Brazilian digit rules of the wire
 * correction apply to a Brazilian account.
 */

/**
 * `pix_info.type` values. `CPF` and `EVP` appear in the service's examples; `CNPJ`, `EMAIL` and
 * `PHONE` follow the same naming for the other kinds of PIX key (not seen in an example).
 */
export const PIX_KEY_TYPES = ['CNPJ', 'CPF', 'EMAIL', 'EVP', 'PHONE'] as const;

const KIND_TYPES: Record<PixKeyKind, (typeof PIX_KEY_TYPES)[number]> = {
	cnpj: 'CNPJ',
	cpf: 'CPF',
	email: 'EMAIL',
	evp: 'EVP',
	phone: 'PHONE',
};

export const REGISTER_BANK_ACCOUNT_LABELS: Record<string, string> = {
	currency: 'Currency',
	account_type: 'Account Type',
	account_number: 'Account Number',
	branch_number: 'Branch Number',
	owner_name: 'Owner Name',
	owner_document_type: 'Owner Document Type',
	owner_document_number: 'Owner Document Number',
	branch_country: 'Branch Country',
	'bank.code': 'Bank Code',
	'bank.name': 'Bank Name',
	'pix_info.type': 'PIX Key Type',
	'pix_info.key': 'PIX Key',
};

export const registerBankAccountSchema = z
	.object({
		currency: checked((raw) => checkCurrency(raw, CURRENCIES)),
		account_type: optionalText(),
		account_number: optionalText(),
		branch_number: optionalText(),
		owner_name: text('the full name of the account owner'),
		owner_document_type: oneOf(DOCUMENT_TYPES, 'the type of the owner’s document'),
		owner_document_number: text('the owner’s document number'),
		branch_country: checked(checkCountryCode),
		bank: z.object({ code: optionalText(), name: optionalText() }).optional(),
		pix_info: z.object({ type: optionalText(), key: optionalText() }).optional(),
	})
	.superRefine((account, ctx) => {
		const issue = (path: string[], message: string) =>
			ctx.addIssue({ code: z.ZodIssueCode.custom, path, message });
		const owner = checkDocumentNumber(account.owner_document_type, account.owner_document_number);
		if (owner.ok) account.owner_document_number = owner.value;
		else issue(['owner_document_number'], owner.reason);

		const key = account.pix_info?.key;
		if (!account.account_number && !key) {
			issue(
				['account_number'],
				'is empty and no PIX key is given: enter the bank details (bank code, branch and account number), a PIX key, or both',
			);
		}
		if (key) {
			if (account.currency !== 'BRL') {
				issue(
					['pix_info', 'key'],
					`is a PIX key, which only a BRL account can have (this one is ${account.currency})`,
				);
			}
			const pix = checkPixKey(key);
			if (!pix.ok) issue(['pix_info', 'key'], pix.reason);
			else {
				const type = KIND_TYPES[pix.kind];
				const given = account.pix_info?.type ? asciiUpperCase(account.pix_info.type) : undefined;
				if (given !== undefined && given !== type) {
					issue(
						['pix_info', 'type'],
						`is ${given}, but the key is a${type === 'EMAIL' || type === 'EVP' ? 'n' : ''} ${type} key`,
					);
				}
				account.pix_info = { type, key: pix.value };
			}
		} else if (account.pix_info) {
			account.pix_info = undefined;
		}

		if (!account.account_number) return;
		if (!isBrazilianCountryCode(account.branch_country)) {
			// Other countries write banks, branches and accounts in other shapes: FacilitaPay decides.
			if (!account.bank?.code && !account.bank?.name)
				issue(['bank', 'code'], 'is empty; enter the bank’s code or name with the account number');
			return;
		}
		const apply = (
			path: string[],
			value: string | undefined,
			check: (raw: string) => Check,
			set: (v: string) => void,
		) => {
			if (!value) {
				issue(path, 'is required with the account number of a Brazilian account');
				return;
			}
			const result = check(value);
			if (result.ok) set(result.value);
			else issue(path, result.reason);
		};
		account.bank = { ...account.bank };
		apply(
			['bank', 'code'],
			account.bank.code,
			checkBrazilianBankCode,
			(v) => (account.bank!.code = v),
		);
		apply(
			['branch_number'],
			account.branch_number,
			checkBrazilianBranchNumber,
			(v) => (account.branch_number = v),
		);
		apply(
			['account_number'],
			account.account_number,
			checkBrazilianAccountNumber,
			(v) => (account.account_number = v),
		);
		if (!account.account_type)
			issue(
				['account_type'],
				'is required with the account number of a Brazilian account: conta-corrente or poupanca',
			);
		else if (!(ACCOUNT_TYPES as readonly string[]).includes(account.account_type))
			issue(
				['account_type'],
				`is "${account.account_type}"; a Brazilian account is conta-corrente (checking) or poupanca (savings)`,
			);
		if (owner.ok && !['cpf', 'cnpj'].includes(account.owner_document_type)) {
			issue(
				['owner_document_type'],
				`is ${account.owner_document_type}; the owner of a Brazilian account has a CPF or a CNPJ`,
			);
		}
	})
	.transform((account) => {
		const out: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(account)) {
			if (value === undefined) continue;
			if (key === 'bank' && typeof value === 'object' && value !== null) {
				const bank = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
				if (Object.keys(bank).length > 0) out.bank = bank;
				continue;
			}
			out[key] = value;
		}
		return out;
	});
