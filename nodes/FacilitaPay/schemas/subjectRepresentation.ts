/**
 * The subject as FacilitaPay shows it (spec, Resources: "Subject representation as seen in the
 * customer KYC event"). One list for everything that reads a subject: the trigger splits the KYC
 * payload by it (documented fields vs the rest), and Simplify keeps the ones people act on.
 */
export const SUBJECT_REPRESENTATION = [
	'id',
	'status',
	'social_name',
	'document_type',
	'document_number',
	'fiscal_country',
	'email',
	'phone_number',
	'birth_date',
	'net_monthly_average_income',
	'clearance_level',
	'required_clearance_level',
	'references',
	'documents',
	'updated_at',
] as const;

/** Personal details and attachments that Simplify leaves out (Get returns them in full). */
const DETAILS: readonly string[] = [
	'birth_date',
	'net_monthly_average_income',
	'references',
	'documents',
];

/**
 * The fields of a subject people act on (Simplify): the representation without its details, plus
 * `inserted_at` (before `updated_at`), which the subject's own endpoints return.
 */
export const SUBJECT_SUMMARY: readonly string[] = SUBJECT_REPRESENTATION.filter(
	(key) => !DETAILS.includes(key),
).flatMap((key) => (key === 'updated_at' ? ['inserted_at', key] : [key]));
