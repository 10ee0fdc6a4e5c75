/**
 * Static PIX / TED receipts (POST /_sandbox/receive/pix|ted): money arriving at the partner's BRL
 * accounts from a payer known only by document number. A registered subject with that document
 * makes it a transaction at once; otherwise it waits as a non-identified bank transaction, and is
 * refunded after two business days unless a subject with that document is registered first.
 */
import { Errors, requireMoney, requirePresent } from '../../validation.mjs';
import { check } from '../../errors.mjs';
import { ACCOUNT_IDS } from '../../accounts.mjs';
import { newTransaction } from './record.mjs';
import { identify } from './status.mjs';

/** The payer's name when the receipt does not give one. */
const UNREGISTERED_PAYER = 'Unregistered Payer';

/** `days` business days (Monday to Friday, UTC) after `ms`. @param {number} ms @param {number} days */
export function addBusinessDays(ms, days) {
	let time = ms;
	let left = days;
	while (left > 0) {
		time += 86400000;
		const weekday = new Date(time).getUTCDay();
		if (weekday !== 0 && weekday !== 6) left--;
	}
	return time;
}

/** A document of 14 digits is a company's (CNPJ), otherwise a person's (CPF). */
export function payerDocumentType(documentNumber) {
	return String(documentNumber).length === 14 ? 'cnpj' : 'cpf';
}

/**
 * A receipt by `method` ('pix' or 'ted'): `{ identified: true, transaction }` when a subject has
 * the payer's document, else `{ identified: false, bank_transaction }`.
 * @param {'pix'|'ted'} method @param {any} body @param {import('./env.mjs').TransactionEnv} env
 */
export function receive(method, body, env) {
	const { state, clock } = env;
	const errors = new Errors();
	requirePresent(errors, body, ['document_number']);
	requireMoney(errors, body, 'value');
	const currency = body.currency ?? 'BRL';
	if (currency !== 'BRL') errors.add('currency', 'must be BRL (PIX and TED are Brazilian)');
	check(errors);
	const bt = {
		id: env.newId(),
		value: body.value,
		currency,
		movement_date: clock.iso().slice(0, 10),
		bank_account_id: method === 'pix' ? ACCOUNT_IDS.brlPixExclusive : ACCOUNT_IDS.brlNoPixKey,
		paid_at: clock.iso(),
		method,
		status: 'non_identified',
		subject: {
			document_number: body.document_number,
			document_type: body.document_type ?? payerDocumentType(body.document_number),
			name: body.name ?? UNREGISTERED_PAYER,
			bank_account: {
				bank: { code: '260', name: 'Nu Pagamentos S.A.' },
				branch_number: '0001',
				account_number: '12345678',
				account_type: 'conta-corrente',
			},
		},
	};
	const subject = env.findSubject(body.document_number);
	if (subject) return { identified: true, transaction: identifyBankTransaction(bt, subject, env) };
	state.bankTransactions.set(bt.id, bt);
	const { status, method: _m, ...pub } = bt;
	env.emit('non_identified_bank_transaction', { bank_transaction: pub });
	bt._refundTask = clock.schedule(
		addBusinessDays(clock.now(), 2),
		() => {
			if (bt.status === 'non_identified') bt.status = 'refunded';
		},
		`refund of non-identified bank transaction ${bt.id}`,
	);
	return { identified: false, bank_transaction: bt };
}

/** The receipt becomes `subject`'s identified static PIX or TED transaction. */
function identifyBankTransaction(bt, subject, env) {
	const { status, method, _refundTask, ...pub } = bt;
	const transaction = newTransaction(
		method === 'pix' ? 'static_pix' : 'ted',
		subject,
		{
			value: bt.value,
			currency: bt.currency,
			exchange_currency: bt.currency,
			to_bank_account_id: bt.bank_account_id,
			bank_transaction: pub,
			source_name: bt.subject.name === UNREGISTERED_PAYER ? subject.social_name : bt.subject.name,
		},
		env,
	);
	transaction.paid_at = bt.paid_at;
	env.state.transactions.set(transaction.id, transaction);
	bt.status = 'identified';
	bt.transaction_id = transaction.id;
	identify(transaction, env);
	return transaction;
}

/** A registered subject's document number matches earlier non-identified receipts. */
export function identifyPendingBankTransactions(subject, env) {
	for (const bt of env.state.bankTransactions.values()) {
		if (bt.status === 'non_identified' && bt.subject.document_number === subject.document_number) {
			env.clock.cancel(bt._refundTask);
			identifyBankTransaction(bt, subject, env);
		}
	}
}
