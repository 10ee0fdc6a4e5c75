/**
 * The rules in this folder are plain functions. What they need of the running sandbox comes in one
 * argument, `env`; a test builds one from `createState()` and `createClock()` and calls a rule.
 */
import { randomUUID } from 'node:crypto';

/**
 * @typedef {object} TransactionEnv
 * @property {any} state the sandbox state (`createState()`)
 * @property {ReturnType<import('../../clock.mjs').createClock>} clock
 * @property {(type: string, fields: object) => unknown} emit sends a webhook event
 * @property {() => string} newId a new record id (a UUID)
 * @property {(subject: any) => boolean} clearance whether a new payment of `subject` is cleared
 * @property {(documentNumber: string) => any} findSubject the subject with that document, or null
 * @property {() => string} baseUrl origin of the sandbox, e.g. http://127.0.0.1:4010
 * @property {() => string} publicHost host and port, without scheme
 * @property {boolean} autoSettle whether the exchange / wire step runs after each identification
 */

/**
 * The env of the running sandbox (`ctx` of server.mjs).
 * @returns {TransactionEnv}
 */
export function transactionEnv(ctx) {
	return {
		state: ctx.state,
		clock: ctx.clock,
		emit: ctx.emit,
		newId: randomUUID,
		clearance: (subject) => ctx.subjects.clearanceForNewPayment(subject),
		findSubject: (documentNumber) => ctx.subjects.findByDocument(documentNumber),
		baseUrl: ctx.baseUrl,
		publicHost: ctx.publicHost,
		autoSettle: Boolean(ctx.config.autoSettle),
	};
}
