/**
 * Transactions: dynamic PIX, boleto, payout, card payment and checkout, static PIX / TED receipts, refunds,
 * and the exchange / wire step (with corrections).
 * Status machine: pending → identified → (exchanged) → (wired); pending|identified → canceled.
 *
 * The rules live in ./transactions/, one job a file, as plain functions of what they need (the
 * state, the clock, ids, events: a TransactionEnv). `createTransactions(ctx)` binds them to the
 * running sandbox; other modules import each rule from the file that owns it.
 */
import { transactionEnv } from './transactions/env.mjs';
import { getTransaction, transactionView } from './transactions/record.mjs';
import { requestKind } from './transactions/requestKind.mjs';
import { createDynamicPix } from './transactions/dynamicPix.mjs';
import { createBoleto } from './transactions/boleto.mjs';
import { createPayout } from './transactions/payout.mjs';
import { createCardPayment } from './transactions/cardPayment.mjs';
import { createCheckout, play } from './transactions/cardCheckout.mjs';
import { pay } from './transactions/customerPayment.mjs';
import { cancelPayment, identifyNow, refundReceived } from './transactions/status.mjs';
import { identifyPendingBankTransactions, receive } from './transactions/bankReceipts.mjs';
import { groupedWire, settle } from './transactions/settlement.mjs';
import { updateWireBankAccount } from './transactions/wireCorrection.mjs';

export function createTransactions(ctx) {
	const env = transactionEnv(ctx);
	const get = (id) => getTransaction(env, id);
	const creators = {
		dynamic_pix: createDynamicPix,
		boleto: createBoleto,
		card: createCardPayment,
		local_pay_in: (tx) => ctx.localPayIns.create(tx),
		payout: createPayout,
	};
	return {
		/** The rules' env (sandbox/outcomes.mjs moves transactions with it). */
		env,
		get,
		view: (transaction) =>
			transactionView(transaction, (subject) => ctx.subjects.view(subject), env.state),
		/** POST /transactions */
		create(body) {
			const { kind, tx } = requestKind(body, env.state);
			return creators[kind](tx, env);
		},
		/** POST /transactions/checkout (body without wrapper) */
		createCheckout: (body) => createCheckout(body, env),
		pay: (id, body = {}) => pay(id, body, env),
		cancel: (id) => cancelPayment(get(id), env),
		identifyNow: (id) => identifyNow(get(id), env),
		play: (changes) => play(env.state, changes),
		groupedWire: (body = {}) => groupedWire(body, env),
		refund: (id) => refundReceived(get(id), env),
		receive: (method, body = {}) => receive(method, body, env),
		settle: (options = {}) => settle(env, options),
		updateWireBankAccount: (id, body) => updateWireBankAccount(id, body, env),
		wireView: (wire) => ({ ...wire }),
		identifyPendingBankTransactions: (subject) => identifyPendingBankTransactions(subject, env),
	};
}
