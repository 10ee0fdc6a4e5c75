/**
 * Subjects (people and companies): registration rules, KYC approval state machine, documents,
 * and the 20k USD annual rule. People are registered at /subject/people, companies at
 * /subject/companies (live docs); a company is a subject of its own, not read or listed at
 * /subject/people, and both kinds pay, are paid and receive subject events alike.
 */
import { randomUUID } from 'node:crypto';
import {
	Errors,
	BRAZIL_STATES,
	PERSON_DOCUMENT_TYPES,
	ALL_DOCUMENT_TYPES,
	documentNumberError,
	isBlank,
	isDate,
	isIncome,
	isValidRfc,
	isBrazil,
	percentageError,
	PHONE_NUMBER_PATTERN,
} from '../validation.mjs';
import { check, notFound } from '../errors.mjs';
import { convertCents, toCents } from '../money.mjs';

export const MAX_FILE_BYTES = 15 * 1024 * 1024;
/** Statuses of a transaction whose funds have moved (what counts as "transacted"). */
export const MONEY_MOVED = ['identified', 'exchanged', 'wired'];
export const ANNUAL_LIMIT_USD_CENTS = 2000000n; // 20 000.00 USD

/** Mandatory documents (by label) for subjects above the annual limit. */
export const MANDATORY_DOCUMENTS = [
	{ label: 'address-proof', item: 'proof_of_address_missing', required: 'proof_of_address' },
	{
		label: 'revenue-tax-declaration',
		item: 'tax_declaration_insufficient',
		required: 'revenue_tax_declaration',
	},
];

const STRING_FIELDS = [
	'document_number',
	'document_type',
	'social_name',
	'fiscal_country',
	'email',
	'website',
	'phone_country_code',
	'phone_area_code',
	'phone_number',
	'birth_date',
	'net_monthly_average_income',
	'address_street',
	'address_number',
	'address_complement',
	'address_neighborhood',
	'address_postal_code',
	'address_city',
	'address_state',
	'address_country',
	'rfc_pf',
	'company_name',
	'creation_date',
	'net_value',
	'main_activity',
	'activity_type',
	'company_type',
];

/** Document types of a company (live docs: cnpj, and tax_id for foreign companies). */
export const COMPANY_DOCUMENT_TYPES = ['cnpj', 'tax_id'];
/** Document types of a company's partner. */
export const PARTNER_DOCUMENT_TYPES = [
	'cc',
	'ce',
	'cnpj',
	'cpf',
	'curp',
	'passport',
	'rut',
	'tax_id',
];

export const ADDRESS_FIELDS = [
	'address_street',
	'address_number',
	'address_neighborhood',
	'address_postal_code',
	'address_city',
	'address_state',
	'address_country',
];

/**
 * Validates a document object (upload body or an item of `person.documents`).
 * @param {Errors} errors @param {any} doc @param {string} prefix
 */
export function validateDocument(errors, doc, prefix = '') {
	if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
		errors.add(prefix.replace(/\.$/, '') || 'document', "can't be blank");
		return null;
	}
	if (!Array.isArray(doc.labels) || doc.labels.length === 0)
		errors.add(`${prefix}labels`, "can't be blank");
	else if (doc.labels.some((label) => typeof label !== 'string' || !label.trim()))
		errors.add(`${prefix}labels`, 'must be a list of non-empty strings');
	// The spec names no closed list of formats: file_type is a MIME type that must match the content.
	let fileType =
		typeof doc.file_type === 'string'
			? doc.file_type === 'image/jpg'
				? 'image/jpeg'
				: doc.file_type
			: '';
	if (isBlank(doc.file_type)) errors.add(`${prefix}file_type`, "can't be blank");
	else if (!/^[a-z]+\/[a-z0-9][a-z0-9.+-]*$/.test(fileType)) {
		errors.add(`${prefix}file_type`, 'must be a MIME type such as application/pdf');
		fileType = '';
	}
	const hasData = !isBlank(doc.file_data);
	const hasUrl = !isBlank(doc.file_url);
	let size = null;
	if (!hasData && !hasUrl)
		errors.add(
			`${prefix}file_data`,
			"can't be blank: give file_data (Base64) with file_name, or file_url",
		);
	if (hasData && hasUrl)
		errors.add(`${prefix}file_url`, 'give either file_data or file_url, not both');
	if (hasData) {
		const data = String(doc.file_data).replace(/\s/g, '');
		if (
			typeof doc.file_data !== 'string' ||
			data.length % 4 !== 0 ||
			!/^[A-Za-z0-9+/]*={0,2}$/.test(data)
		) {
			errors.add(`${prefix}file_data`, 'is not valid Base64');
		} else {
			size =
				Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
			if (size > MAX_FILE_BYTES)
				errors.add(`${prefix}file_data`, `is too large (${size} bytes decoded; at most 15 MB)`);
			else if (fileType) {
				const detected = sniff(Buffer.from(data.slice(0, 24), 'base64'));
				const mismatch = detected ? detected !== fileType : SNIFFED_TYPES.includes(fileType);
				if (mismatch)
					errors.add(
						`${prefix}file_type`,
						`does not match the file content (content looks like ${detected ?? 'an unknown type'})`,
					);
			}
		}
		if (isBlank(doc.file_name))
			errors.add(`${prefix}file_name`, "can't be blank when file_data is given");
		else if (!/\.[A-Za-z0-9]{1,5}$/.test(doc.file_name))
			errors.add(`${prefix}file_name`, 'must include an extension, e.g. "proof.pdf"');
	}
	if (hasUrl && !/^https?:\/\/\S+$/.test(String(doc.file_url)))
		errors.add(`${prefix}file_url`, 'must start with http:// or https://');
	return size;
}

/** Types the sandbox recognises by content; other MIME types are taken as declared. */
const SNIFFED_TYPES = [
	'application/pdf',
	'image/bmp',
	'image/gif',
	'image/heic',
	'image/heif',
	'image/jpeg',
	'image/png',
	'image/tiff',
	'image/webp',
];

/** The MIME type shown by a file's first bytes, or null. @param {Buffer} head */
function sniff(head) {
	const ascii = (from, to) => head.subarray(from, to).toString('latin1');
	if (ascii(0, 4) === '%PDF') return 'application/pdf';
	if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
		return 'image/png';
	if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
	if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
	if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
	if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') return 'image/tiff';
	if (head.length >= 14 && ascii(0, 2) === 'BM' && head.readUInt32LE(6) === 0) return 'image/bmp';
	if (ascii(4, 8) === 'ftyp') {
		const brand = ascii(8, 12);
		if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis'].includes(brand)) return 'image/heic';
		if (['mif1', 'msf1', 'heif'].includes(brand)) return 'image/heif';
	}
	return null;
}

export function createSubjects(ctx) {
	const { state, clock } = ctx;

	function get(id) {
		const subject = state.subjects.get(id);
		if (!subject) throw notFound();
		return subject;
	}

	/** A person (a company is not found at /subject/people/:id, as at the service). */
	function getPerson(id) {
		const subject = get(id);
		if (subject._kind === 'company') throw notFound();
		return subject;
	}

	const isCompany = (subject) => subject._kind === 'company';

	/**
	 * The subject with this document number, of the kind asked for (`person` or `company`), or of
	 * either kind (a payer is recognised by document number whatever it is).
	 * @param {string} number @param {'person'|'company'} [kind]
	 */
	function findByDocument(number, kind) {
		for (const subject of state.subjects.values()) {
			if (subject.document_number !== number) continue;
			if (kind === undefined || (kind === 'company') === isCompany(subject)) return subject;
		}
		return null;
	}

	/**
	 * @param {Errors} errors @param {any} person merged person @param {any} input fields sent
	 * @param {{allTypes?: boolean}} [options]
	 */
	function validatePersonFields(errors, person, input, options = {}) {
		const types = options.allTypes ? ALL_DOCUMENT_TYPES : PERSON_DOCUMENT_TYPES;
		if (isBlank(person.document_type)) errors.add('document_type', "can't be blank");
		else if (!types.includes(person.document_type))
			errors.add('document_type', `must be one of: ${types.join(', ')}`);
		else if (typeof person.document_number === 'string' || isBlank(person.document_number)) {
			const msg = documentNumberError(person.document_type, person.document_number);
			if (msg) errors.add('document_number', msg);
		}
		if (isBlank(person.social_name)) errors.add('social_name', "can't be blank");
		if (isBlank(person.fiscal_country)) errors.add('fiscal_country', "can't be blank");
		if (!isBlank(person.email) && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(String(person.email)))
			errors.add('email', 'is not a valid e-mail address');
		if (!isBlank(person.phone_country_code) && !/^\d{2}$/.test(String(person.phone_country_code)))
			errors.add('phone_country_code', 'must be 2 digits (spec), e.g. "55"');
		if (!isBlank(person.phone_area_code) && !/^\d{1,4}$/.test(String(person.phone_area_code)))
			errors.add('phone_area_code', 'must be digits only');
		if (!isBlank(person.phone_number) && !PHONE_NUMBER_PATTERN.test(String(person.phone_number)))
			errors.add('phone_number', 'must be 4 to 15 digits, without spaces or dashes');
		if (!isBlank(person.birth_date)) {
			if (!isDate(person.birth_date))
				errors.add('birth_date', 'must be a date in the form YYYY-MM-DD');
			else if (Date.parse(`${person.birth_date}T00:00:00Z`) > clock.now())
				errors.add('birth_date', 'cannot be in the future');
		}
		for (const field of ['net_monthly_average_income', 'net_value']) {
			if (!isBlank(person[field]) && !isIncome(person[field]))
				errors.add(
					field,
					'must be an amount as a string with at most two decimals, e.g. "5000" or "5000.00"',
				);
		}
		const brazilian = isBrazil(person.address_country ?? person.fiscal_country);
		if (!isBlank(person.creation_date)) {
			if (!isDate(person.creation_date))
				errors.add('creation_date', 'must be a date in the form YYYY-MM-DD');
			else if (Date.parse(`${person.creation_date}T00:00:00Z`) > clock.now())
				errors.add('creation_date', 'cannot be in the future');
		}
		if (
			!isBlank(person.address_state) &&
			brazilian &&
			!BRAZIL_STATES.includes(person.address_state)
		) {
			errors.add(
				'address_state',
				`must be one of the 27 Brazilian states: ${BRAZIL_STATES.join(', ')}`,
			);
		}
		if (
			!isBlank(person.address_postal_code) &&
			brazilian &&
			!/^\d{8}$/.test(String(person.address_postal_code))
		) {
			errors.add('address_postal_code', 'must be 8 digits (Brazilian CEP), without dash');
		}
		if (!isBlank(person.rfc_pf)) {
			if (!isValidRfc(person.rfc_pf)) errors.add('rfc_pf', 'is not a valid RFC (13 characters)');
			else if (
				person.document_type === 'curp' &&
				typeof person.document_number === 'string' &&
				person.rfc_pf.slice(0, 10) !== person.document_number.slice(0, 10)
			) {
				errors.add(
					'rfc_pf',
					'its first 10 characters must equal the first 10 characters of the CURP',
				);
			}
		}
		if (input.documents !== undefined && input.documents !== null) {
			if (!Array.isArray(input.documents)) errors.add('documents', 'must be a list');
			else
				input.documents.forEach((document, index) =>
					validateDocument(errors, document, `documents[${index}].`),
				);
		}
	}

	function storedDocument(doc, size) {
		return {
			id: randomUUID(),
			labels: doc.labels,
			file_type: doc.file_type,
			file_name: doc.file_name ?? null,
			file_url: doc.file_url ?? null,
			size,
			status: 'pending_analysis',
			inserted_at: clock.iso(),
		};
	}

	function applyFields(subject, input) {
		for (const field of STRING_FIELDS)
			if (input[field] !== undefined && field !== 'document_number' && field !== 'document_type')
				subject[field] = input[field];
		if (input.partners !== undefined) subject.partners = input.partners;
		if (Array.isArray(input.documents)) {
			for (const document of input.documents)
				subject.documents.push(
					storedDocument(
						document,
						document.file_data ? Buffer.byteLength(document.file_data, 'base64') : null,
					),
				);
		}
		subject.updated_at = clock.iso();
	}

	/**
	 * POST /subject/people: creates, or updates the person with the same document number.
	 * @returns {{subject: any, created: boolean}}
	 */
	function register(input, options = {}) {
		const errors = new Errors();
		if (!input || typeof input !== 'object' || Array.isArray(input)) {
			errors.add('person', "can't be blank");
			check(errors);
		}
		validatePersonFields(errors, input, input, options);
		check(errors);
		const existing = findByDocument(input.document_number, 'person');
		if (existing) {
			if (existing.document_type !== input.document_type) {
				errors.add(
					'document_type',
					`cannot be updated (the person with this document number has type ${existing.document_type})`,
				);
				check(errors);
			}
			applyFields(existing, input);
			return { subject: existing, created: false };
		}
		const subject = newSubject(input, { birth_date: null, rfc_pf: null });
		return { subject, created: true };
	}

	/**
	 * A new subject, stored: the fields every subject has (null until given), then those of its
	 * kind (`own`), filled from `input`; bank transactions waiting for its document are identified.
	 */
	function newSubject(input, own) {
		const now = clock.iso();
		const subject = {
			id: randomUUID(),
			status: 'approved',
			document_type: input.document_type,
			document_number: input.document_number,
			social_name: null,
			company_name: null,
			fiscal_country: null,
			email: null,
			website: null,
			phone_country_code: null,
			phone_area_code: null,
			phone_number: null,
			net_monthly_average_income: null,
			...own,
			address_street: null,
			address_number: null,
			address_complement: null,
			address_neighborhood: null,
			address_postal_code: null,
			address_city: null,
			address_state: null,
			address_country: null,
			clearance_level: 1,
			required_clearance_level: 1,
			references: [],
			documents: [],
			inserted_at: now,
			updated_at: now,
		};
		applyFields(subject, input);
		state.subjects.set(subject.id, subject);
		ctx.transactions.identifyPendingBankTransactions(subject);
		return subject;
	}

	/** PUT /subject/people/:id */
	function update(id, input) {
		const subject = getPerson(id);
		const errors = new Errors();
		if (!input || typeof input !== 'object' || Array.isArray(input)) {
			errors.add('person', "can't be blank");
			check(errors);
		}
		for (const field of ['document_number', 'document_type']) {
			if (input[field] !== undefined && input[field] !== subject[field])
				errors.add(field, 'cannot be updated');
		}
		check(errors);
		const merged = {
			...subject,
			...input,
			document_number: subject.document_number,
			document_type: subject.document_type,
		};
		validatePersonFields(errors, merged, input, { allTypes: true });
		check(errors);
		applyFields(subject, input);
		return subject;
	}

	/** POST /subject/:id/documents (400 on errors, as the service) */
	function addDocument(id, doc) {
		const subject = get(id);
		const errors = new Errors();
		const size = validateDocument(errors, doc, '');
		check(errors, 400);
		const stored = storedDocument(doc, size);
		subject.documents.push(stored);
		if (subject.status === 'reproved') subject.status = 'waiting_approval';
		subject.updated_at = clock.iso();
		return stored;
	}

	function missingMandatory(subject) {
		const labels = new Set(
			subject.documents
				.filter((document) => document.status !== 'rejected')
				.flatMap((document) => document.labels),
		);
		return MANDATORY_DOCUMENTS.filter((mandatory) => !labels.has(mandatory.label));
	}

	/** Transacted amount (funds moved) in USD cents over the current calendar year (sandbox clock). */
	function annualUsdCents(subject) {
		const year = clock.iso().slice(0, 4);
		let total = 0n;
		for (const transaction of state.transactions.values()) {
			if (
				transaction.subject_id !== subject.id ||
				!MONEY_MOVED.includes(transaction.status) ||
				!transaction.inserted_at.startsWith(year)
			)
				continue;
			total += convertCents(toCents(transaction.value), transaction.currency, 'USD');
		}
		return total;
	}

	/**
	 * Called before a new payment of the subject is recorded. Returns its `cleared` flag and applies
	 * the 20k USD rule (reprove + events).
	 */
	function clearanceForNewPayment(subject) {
		if (subject.status !== 'approved') return false;
		if (annualUsdCents(subject) < ANNUAL_LIMIT_USD_CENTS) return true;
		const missing = missingMandatory(subject);
		if (missing.length === 0) return true;
		subject.status = 'reproved';
		subject.required_clearance_level = Math.max(subject.required_clearance_level, 2);
		subject.updated_at = clock.iso();
		ctx.emit('subject_reproved', {
			subject_id: subject.id,
			reason: 'annual_limit_reached',
			items: missing.map((mandatory) => mandatory.item),
		});
		ctx.emit('document_required', {
			subject_id: subject.id,
			required_documents: missing.map((mandatory) => mandatory.required),
		});
		return false;
	}

	/** Back office approves (again): releases held transactions. */
	function approve(id) {
		const subject = get(id);
		subject.status = 'approved';
		subject.clearance_level = Math.max(subject.clearance_level, subject.required_clearance_level);
		for (const document of subject.documents)
			if (document.status === 'pending_analysis') document.status = 'approved';
		subject.updated_at = clock.iso();
		ctx.emit('subject_approved', { subject_id: subject.id });
		const released = [];
		for (const transaction of state.transactions.values()) {
			if (
				transaction.subject_id === subject.id &&
				!transaction.cleared &&
				transaction.status !== 'canceled'
			) {
				transaction.cleared = true;
				released.push(transaction.id);
			}
		}
		if (released.length && ctx.config.autoSettle) ctx.transactions.settle({});
		return { subject, released_transaction_ids: released };
	}

	function reprove(id, body = {}) {
		const subject = get(id);
		const items =
			Array.isArray(body.items) && body.items.length ? body.items : ['proof_of_address_rejected'];
		subject.status = 'reproved';
		for (const document of subject.documents)
			if (document.status === 'pending_analysis') document.status = 'rejected';
		subject.updated_at = clock.iso();
		const event = { subject_id: subject.id, items };
		if (body.reason) event.reason = body.reason;
		ctx.emit('subject_reproved', event);
		return subject;
	}

	function view(subject) {
		const out = {};
		for (const [key, value] of Object.entries(subject)) if (!key.startsWith('_')) out[key] = value;
		return out;
	}

	/** @param {Errors} errors @param {any} partners */
	function validatePartners(errors, partners) {
		if (partners === undefined || partners === null) return;
		if (!Array.isArray(partners)) {
			errors.add('partners', 'must be a list');
			return;
		}
		let total = 0;
		partners.forEach((partner, index) => {
			const prefix = `partners[${index}].`;
			if (!partner || typeof partner !== 'object' || Array.isArray(partner)) {
				errors.add(`partners[${index}]`, 'must be an object');
				return;
			}
			if (isBlank(partner.name)) errors.add(`${prefix}name`, "can't be blank");
			if (!PARTNER_DOCUMENT_TYPES.includes(partner.document_type))
				errors.add(
					`${prefix}document_type`,
					`must be one of: ${PARTNER_DOCUMENT_TYPES.join(', ')}`,
				);
			else {
				const message = documentNumberError(partner.document_type, partner.document_number);
				if (message) errors.add(`${prefix}document_number`, message);
			}
			const share = percentageError(partner.percentage_share);
			if (share) errors.add(`${prefix}percentage_share`, share);
			else {
				const [whole, fraction = ''] = partner.percentage_share.split('.');
				total += Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
			}
		});
		if (total > 10000) errors.add('partners', 'percentage shares add up to more than 100');
	}

	/**
	 * POST /subject/companies (live docs): creates, or updates the company with the same document
	 * number. Only the document and the legal name are required here: the documentation's table of
	 * required fields could not be read.
	 * @returns {{subject: any, created: boolean}}
	 */
	function registerCompany(input) {
		const errors = new Errors();
		if (!input || typeof input !== 'object' || Array.isArray(input)) {
			errors.add('company', "can't be blank");
			check(errors);
		}
		for (const field of STRING_FIELDS) {
			if (input[field] !== undefined && input[field] !== null && typeof input[field] !== 'string')
				errors.add(field, 'must be a string');
		}
		if (isBlank(input.document_type)) errors.add('document_type', "can't be blank");
		else if (!COMPANY_DOCUMENT_TYPES.includes(input.document_type))
			errors.add('document_type', `must be one of: ${COMPANY_DOCUMENT_TYPES.join(', ')}`);
		else {
			const message = documentNumberError(input.document_type, input.document_number);
			if (message) errors.add('document_number', message);
		}
		if (isBlank(input.social_name)) errors.add('social_name', "can't be blank");
		// The person rules for the fields a company shares (e-mail, phone, address, incomes…), with
		// a CNPJ counting as Brazilian when no country says otherwise.
		const shared = new Errors();
		validatePersonFields(
			shared,
			{
				...input,
				document_type: 'passport',
				document_number: 'X',
				social_name: input.social_name || 'X',
				fiscal_country: input.fiscal_country || (input.document_type === 'cnpj' ? 'BR' : 'XX'),
			},
			{ ...input, document_type: undefined, document_number: undefined },
		);
		for (const [field, messages] of Object.entries(shared.map))
			if (!['document_type', 'document_number', 'social_name', 'fiscal_country'].includes(field))
				for (const message of messages) errors.add(field, message);
		validatePartners(errors, input.partners);
		check(errors);
		const existing = findByDocument(input.document_number, 'company');
		if (existing) {
			applyFields(existing, input);
			return { subject: existing, created: false };
		}
		const subject = newSubject(input, {
			creation_date: null,
			net_value: null,
			main_activity: null,
			activity_type: null,
			company_type: null,
			partners: [],
			_kind: 'company',
		});
		return { subject, created: true };
	}

	return {
		get,
		getPerson,
		isCompany,
		findByDocument,
		register,
		registerCompany,
		update,
		addDocument,
		approve,
		reprove,
		view,
		annualUsdCents,
		clearanceForNewPayment,
		missingMandatory,
	};
}
