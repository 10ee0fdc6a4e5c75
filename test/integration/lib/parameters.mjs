// Node parameters the integration tests (and bench/node-throughput.mjs) run against the sandbox:
// the sandbox's seeded accounts filled in, so that the same request works there as written.
import { browserParameters } from '../../fixtures/cards.js';
import { personParameters } from '../../fixtures/subjects.js';
import { ACCOUNT_IDS as ACCOUNTS } from '../../../sandbox/accounts.mjs';

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

/** Subject > Create or Update, Additional Fields: Maria's e-mail, phone and address in São Paulo. */
export const contactParameters = {
	email: 'maria@example.com',
	phoneNumber: '11987654321',
	addressStreet: 'Avenida Paulista',
	addressNumber: '1000',
	addressNeighborhood: 'Bela Vista',
	addressPostalCode: '01310100',
	addressCity: 'São Paulo',
	addressState: 'SP',
	addressCountry: 'BR',
};

/**
 * The same contact as a user types it in the editor's separate phone fields (country, area code,
 * number) with the postal code punctuated; `addressState` as given (the node upper-cases it).
 */
export const fullAddress = (addressState = 'SP') => ({
	email: 'maria@example.com',
	phoneCountryCode: '55',
	phoneAreaCode: '11',
	phoneNumber: '987654321',
	addressStreet: 'Avenida Paulista',
	addressNumber: 1000,
	addressNeighborhood: 'Bela Vista',
	addressPostalCode: '01310-100',
	addressCity: 'São Paulo',
	addressState,
	addressCountry: 'BR',
});

/** Transaction > Create Boleto: `value` BRL into the customer's BRL account, due on `expireAt`. */
export const boletoParameters = (subjectId, value, expireAt, extra = {}) => ({
	resource: 'transaction',
	operation: 'createBoleto',
	subjectId,
	toBankAccountId: ACCOUNTS.brlCustomer,
	currency: 'BRL',
	exchangeCurrency: 'BRL',
	value,
	expireAt,
	...extra,
});

/** Transaction > Create Card Checkout: 80.00 BRL settled in USD. */
export const checkoutParameters = (subjectId, extra = {}) => ({
	resource: 'transaction',
	operation: 'createCheckout',
	subjectId,
	toBankAccountId: ACCOUNTS.usdDestination,
	currency: 'BRL',
	exchangeCurrency: 'USD',
	value: '80.00',
	...extra,
});

/** Subscription > Create, paid by card: 3 monthly charges of 49.90 into the USD account. */
export const cardSubscriptionParameters = (
	subjectId,
	cardNumber = '4111111111111111',
	extra = {},
) => ({
	resource: 'subscription',
	operation: 'create',
	paymentMethod: 'card',
	subjectId,
	value: '49.90',
	frequency: 'month',
	cycles: 3,
	toBankAccountId: ACCOUNTS.usdDestination,
	cardNumber,
	cardExpirationDate: '08/2030',
	cardBrand: 'visa',
	cardSecurityCode: '737',
	fullname: 'Maria Silva',
	cardType: 'credit',
	dfReferenceId: 'df-1',
	mcc: '8999',
	...browserParameters,
	additionalFields: {},
	...extra,
});

/** Subscription > Create, paid by automatic PIX from the partner's PIX account into the USD one. */
export const automaticPixSubscriptionParameters = (subjectId, extra = {}) => ({
	resource: 'subscription',
	operation: 'create',
	paymentMethod: 'automaticPix',
	subjectId,
	value: '49.90',
	frequency: 'month',
	cycles: 3,
	toBankAccountId: ACCOUNTS.usdDestination,
	fromBankAccountId: ACCOUNTS.brlPixExclusive,
	additionalFields: {},
	...extra,
});
