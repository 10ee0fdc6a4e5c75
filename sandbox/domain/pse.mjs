/**
 * Colombia's PSE as FacilitaPay's public Python client sends it: `POST /transactions` in COP with
 * `from_pse: {financial_institution_code, redirect_url, payment_description}` and no
 * `from_bank_account_id`; the answer's `from_pse` carries `payment_url`, `ticket_id`,
 * `trazability_code`, `bank_name` and `creation_date`. The banks come from
 * `GET /pse/financial_institutions`.
 *
 * Not published, so the sandbox's choice: the list's field names (`financial_institution_code`,
 * `financial_institution_name`, mirroring the request's), its content (real PSE codes of a few
 * Colombian banks), and whether the list can be read at all, which `POST /_sandbox/pse/banks
 * {"listed": false}` takes away (the list then answers 503, as a service that cannot reach PSE).
 */
import { isBlank } from '../validation.mjs';
import { ApiError } from '../errors.mjs';

/** PSE financial institutions (code → name). */
export const PSE_BANKS = [
	{ financial_institution_code: '1001', financial_institution_name: 'BANCO DE BOGOTA' },
	{ financial_institution_code: '1007', financial_institution_name: 'BANCOLOMBIA' },
	{ financial_institution_code: '1013', financial_institution_name: 'BBVA COLOMBIA' },
	{ financial_institution_code: '1022', financial_institution_name: 'BANCO UNION COLOMBIANO' },
	{ financial_institution_code: '1051', financial_institution_name: 'DAVIVIENDA' },
	{ financial_institution_code: '1507', financial_institution_name: 'NEQUI' },
];

/** Whether a `POST /transactions` body asks for PSE the client's way. @param {any} tx */
export const isPseRequest = (tx) => tx?.from_pse !== undefined && tx?.from_pse !== null;

/**
 * The list of banks, or the 503 a service that cannot read it answers (played).
 * @param {{ listed: boolean }} play
 */
export function financialInstitutions(play) {
	if (!play.listed) throw new ApiError(503, { error: 'service_unavailable' });
	return PSE_BANKS.map((bank) => ({ ...bank }));
}

/**
 * `from_pse`'s own fields. A code not on the list is refused (the list is what PSE takes).
 * @param {import('../validation.mjs').Errors} errors @param {any} pse
 */
export function validatePse(errors, pse) {
	if (!pse || typeof pse !== 'object' || Array.isArray(pse)) {
		errors.add('from_pse', 'must be an object');
		return;
	}
	const code = pse.financial_institution_code;
	if (isBlank(code)) errors.add('from_pse.financial_institution_code', "can't be blank");
	else if (!PSE_BANKS.some((bank) => bank.financial_institution_code === String(code)))
		errors.add(
			'from_pse.financial_institution_code',
			'is not a PSE financial institution (GET /pse/financial_institutions)',
		);
	if (isBlank(pse.redirect_url)) errors.add('from_pse.redirect_url', "can't be blank");
	else if (!/^https?:\/\/\S+$/i.test(String(pse.redirect_url)))
		errors.add('from_pse.redirect_url', 'must be an http(s) URL');
	if (pse.payment_description !== undefined && typeof pse.payment_description !== 'string')
		errors.add('from_pse.payment_description', 'must be a string');
}

/**
 * The answer's `from_pse`: what was asked, and where the customer pays.
 * @param {any} pse @param {{ id: string, paymentUrl: string, now: string, seq: number }} made
 */
export function pseAnswer(pse, made) {
	const bank = PSE_BANKS.find(
		(candidate) => candidate.financial_institution_code === String(pse.financial_institution_code),
	);
	return {
		financial_institution_code: String(pse.financial_institution_code),
		redirect_url: pse.redirect_url,
		payment_description: pse.payment_description ?? null,
		payment_url: made.paymentUrl,
		ticket_id: String(made.seq).padStart(8, '0'),
		trazability_code: made.id.replace(/-/g, '').slice(0, 12).toUpperCase(),
		bank_name: bank?.financial_institution_name ?? null,
		creation_date: made.now,
	};
}
