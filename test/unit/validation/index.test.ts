import * as validation from '../../../nodes/FacilitaPay/validation';

describe('validation index', () => {
	it.each([
		'stripDocumentPunctuation',
		'checkCpf',
		'checkCnpj',
		'checkCurp',
		'checkRfcPerson',
		'checkColombianId',
		'checkRut',
		'checkPassport',
		'checkDocumentNumber',
		'checkBrazilianState',
		'checkCep',
		'checkCountryCode2',
		'checkPhoneCountryCode',
		'checkMoney',
		'checkCurrency',
		'checkDynamicPixExpiry',
		'checkBoletoExpireAt',
		'checkBirthDate',
		'checkCardExpiration',
		'detectFileType',
		'checkDocumentFile',
		'checkBase64',
		'checkHttpUrl',
		'checkLabels',
		'checkCardNumber',
		'checkSecurityCode',
		'checkFullName',
		'maskCardNumber',
		'truncateSoftDescriptor',
		'crc16CcittFalse',
		'parseBrCode',
		'checkPixKey',
		'checkBoletoBarcode',
		'checkDigitalLine',
		'digitalLineToBarcode',
		'checkUuid',
		'checkEmail',
		'checkNonEmpty',
		'checkIntegerInRange',
		'checkPathId',
		'asciiUpperCase',
		'asciiLowerCase',
	])('exports the function %s', (name) => {
		expect(typeof (validation as Record<string, unknown>)[name]).toBe('function');
	});

	it.each([
		'PERSON_DOCUMENT_TYPES',
		'BRAZILIAN_STATES',
		'CURRENCIES',
		'DOCUMENT_LABELS',
		'CHALLENGE_WINDOW_SIZES',
		'MCC_CODES',
		'CARD_CURRENCIES',
	])('exports the list %s', (name) => {
		expect(Array.isArray((validation as Record<string, unknown>)[name])).toBe(true);
	});

	it('exports the file size limit of 15 MB', () => {
		expect(validation.MAX_DOCUMENT_BYTES).toBe(15 * 1024 * 1024);
	});
});
