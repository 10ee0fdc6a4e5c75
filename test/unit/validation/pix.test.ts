import {
	checkPixKey,
	crc16CcittFalse,
	parseBrCode,
} from '../../../nodes/FacilitaPay/validation/pix';

/** Builds one `ID LEN VALUE` field. */
function field(id: string, value: string): string {
	return id + String(value.length).padStart(2, '0') + value;
}

/** Appends the CRC field to a code body. */
function withCrc(body: string): string {
	const text = body + '6304';
	return text + crc16CcittFalse(text);
}

// Example static code of the Banco Central "Manual de Padrões para Iniciação do Pix".
const STATIC_CODE =
	'00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

const DYNAMIC_CODE = withCrc(
	field('00', '01') +
		field('01', '12') +
		field(
			'26',
			field('00', 'br.gov.bcb.pix') +
				field('25', 'qr.example.com.br/pix/v2/9d36b84fc70b478fb95c12729b90ca25'),
		) +
		field('52', '0000') +
		field('53', '986') +
		field('54', '10.50') +
		field('58', 'BR') +
		field('59', 'LOJA EXEMPLO') +
		field('60', 'SAO PAULO') +
		field('62', field('05', '***')),
);

describe('crc16CcittFalse', () => {
	it.each([
		['123456789', '29B1'],
		['', 'FFFF'],
		[STATIC_CODE.slice(0, -4), '1D3D'],
	])('of %j is %j', (text, crc) => {
		expect(crc16CcittFalse(text)).toBe(crc);
	});

	it('always writes 4 upper-case hex digits', () => {
		expect(crc16CcittFalse('A')).toMatch(/^[0-9A-F]{4}$/);
	});
});

describe('parseBrCode', () => {
	it('reads the static example code of the Banco Central', () => {
		const result = parseBrCode(STATIC_CODE);
		expect(result).toMatchObject({
			ok: true,
			isDynamic: false,
			merchantName: 'Fulano de Tal',
			merchantCity: 'BRASILIA',
			txid: '***',
			merchantAccount: { '00': 'br.gov.bcb.pix', '01': '123e4567-e12b-12d1-a456-426655440000' },
		});
		expect(result.ok && result.fields).toMatchObject({
			'00': '01',
			'52': '0000',
			'53': '986',
			'58': 'BR',
			'63': '1D3D',
		});
		expect(result.ok && result.location).toBeUndefined();
		expect(result.ok && result.amount).toBeUndefined();
	});

	it('reads a dynamic code with its location and amount', () => {
		expect(parseBrCode(DYNAMIC_CODE)).toMatchObject({
			ok: true,
			isDynamic: true,
			location: 'qr.example.com.br/pix/v2/9d36b84fc70b478fb95c12729b90ca25',
			amount: '10.50',
			merchantName: 'LOJA EXEMPLO',
			merchantCity: 'SAO PAULO',
			txid: '***',
		});
	});

	it('accepts surrounding whitespace and a lower-case checksum', () => {
		expect(parseBrCode(`  ${STATIC_CODE.slice(0, -4)}1d3d\n`).ok).toBe(true);
	});

	it.each([
		['', 'is empty; paste the PIX copy-and-paste code'],
		[
			'hello',
			'is not a PIX code: a PIX copy-and-paste code starts with 000201; copy the whole code again',
		],
		[
			STATIC_CODE.slice(0, -4) + '1D3E',
			'checksum (the last 4 characters) does not match: the code was changed or copied incompletely',
		],
		[
			STATIC_CODE.replace('Fulano de Tal', 'Fulano de Tom'),
			'checksum (the last 4 characters) does not match: the code was changed or copied incompletely',
		],
		[
			STATIC_CODE.slice(0, -2),
			'is cut off: field 63 announces 4 characters but only 2 follow; copy the whole code again',
		],
		[
			STATIC_CODE.slice(0, -8),
			'does not end with its checksum (field 63, e.g. 6304A1B2); the code is incomplete, copy it again',
		],
		[
			'000201' + 'XX',
			'is damaged: a field at character 7 does not start with a 2-digit id and a 2-digit length; copy the whole code again',
		],
		[
			withCrc(
				field('00', '01') +
					field('26', field('00', 'com.example.pay') + field('01', 'key')) +
					field('58', 'BR'),
			),
			'is an EMV payment code but not a PIX code: it has no br.gov.bcb.pix account',
		],
	])('rejects %j: %s', (code, reason) => {
		expect(parseBrCode(code)).toEqual({ ok: false, reason });
	});
});

describe('checkPixKey', () => {
	it.each([
		['390.533.447-05', '39053344705', 'cpf'],
		['39053344705', '39053344705', 'cpf'],
		['16.727.230/0001-97', '16727230000197', 'cnpj'],
		['12ABC34501DE35', '12ABC34501DE35', 'cnpj'],
		['Maria.Silva@Example.com', 'maria.silva@example.com', 'email'],
		['+5511987654321', '+5511987654321', 'phone'],
		['+55 (11) 98765-4321', '+5511987654321', 'phone'],
		['+551133334444', '+551133334444', 'phone'],
		['123E4567-E12B-12D1-A456-426655440000', '123e4567-e12b-12d1-a456-426655440000', 'evp'],
		[' 123e4567-e12b-12d1-a456-426655440000 ', '123e4567-e12b-12d1-a456-426655440000', 'evp'],
	])('accepts %j as %j (%s)', (raw, value, kind) => {
		expect(checkPixKey(raw)).toEqual({ ok: true, value, kind });
	});

	it.each([
		['', expect.stringContaining('is empty; enter a CPF (11 digits)')],
		['23100299900', 'check digits do not match: this is not a valid CPF'],
		[
			'11987654321',
			'is not a valid CPF; if it is a phone number, write it with +55 in front, e.g. +5511987654321',
		],
		['16727230000198', 'check digits do not match: this is not a valid CNPJ'],
		['maria@', 'is not a valid e-mail key; use the form name@example.com'],
		['maria@example..com', 'is not a valid e-mail key; use the form name@example.com'],
		[`${'a'.repeat(70)}@example.com`, 'has 82 characters; an e-mail PIX key has at most 77'],
		[
			'+1 415 555 0100',
			'is not a Brazilian phone key; write +55, the 2-digit area code and the number, e.g. +5511987654321',
		],
		[
			'+55119876543',
			'is not a Brazilian phone key; write +55, the 2-digit area code and the number, e.g. +5511987654321',
		],
		['hello', expect.stringContaining('is not a PIX key; enter a CPF (11 digits)')],
		['123e4567-e12b-12d1-a456-42665544000', expect.stringContaining('is not a PIX key')],
	])('rejects %j', (raw, reason) => {
		expect(checkPixKey(raw)).toEqual({ ok: false, reason });
	});
});
