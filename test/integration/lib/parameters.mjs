// Node parameters the integration tests (and bench/node-throughput.mjs) run against the sandbox:
// the sandbox's seeded accounts filled in, so that the same request works there as written.
import { personParameters } from '../../fixtures/subjects.js';
import { ACCOUNTS } from './harness.mjs';

/** Subject > Create or Update with a CPF whose check digits are wrong: refused before sending. */
export const INVALID_CPF_PERSON = personParameters(
	{},
	{ documentNumber: '23100299900', socialName: 'X Y' },
);

/** A UTC date-time one hour from now, without milliseconds (what a user types). */
export const inAnHour = () =>
	new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Transaction > Create Dynamic PIX: `value` BRL paid into the partner's PIX account, kept in BRL. */
export const dynamicPixParameters = (subjectId, value, extra = {}) => ({
	resource: 'transaction',
	operation: 'createDynamicPix',
	subjectId,
	fromBankAccountId: ACCOUNTS.brlPixExclusive,
	toBankAccountId: ACCOUNTS.brlCustomer,
	exchangeCurrency: 'BRL',
	value,
	dynamicPixExpiresAt: inAnHour(),
	...extra,
});

/** Subject > Get, simplified. */
export const getSubjectParameters = (subjectId) => ({
	resource: 'subject',
	operation: 'get',
	subjectId,
	simplify: true,
});

/** A Transaction operation on one transaction (Get, Cancel, Refund…). */
export const transactionParameters = (operation, transactionId, extra = {}) => ({
	resource: 'transaction',
	operation,
	transactionId,
	...extra,
});
