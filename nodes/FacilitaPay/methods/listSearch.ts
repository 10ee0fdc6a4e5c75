import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, SERVICE_PAGE_SIZE } from '../transport';

/** How many matching customers' transactions one page of the transaction list reads. */
const CUSTOMERS_PER_TRANSACTION_PAGE = 5;

/**
 * A document number as a person recognises it without showing all of it: a CPF as
 * `***.456.789-**`, anything else as its type and last four characters.
 */
export function maskDocument(type: unknown, number: unknown): string {
	const kind = String(type ?? '').toUpperCase();
	const text = String(number ?? '').replace(/[^0-9A-Za-z]/g, '');
	if (text === '') return kind;
	if (kind === 'CPF' && text.length === 11)
		return `CPF ***.${text.slice(3, 6)}.${text.slice(6, 9)}-**`;
	return `${kind} …${text.slice(-4)}`.trim();
}

/** Whether a record's label (or its raw document digits) matches what was typed in the search box. */
function matches(filter: string | undefined, label: string, ...extra: unknown[]): boolean {
	if (!filter || filter.trim() === '') return true;
	const wanted = filter.trim().toLowerCase();
	if (label.toLowerCase().includes(wanted)) return true;
	const digits = wanted.replace(/\D/g, '');
	return extra.some((value) => {
		const text = String(value ?? '').toLowerCase();
		return (
			text.includes(wanted) || (digits.length >= 3 && text.replace(/\D/g, '').includes(digits))
		);
	});
}

async function page(
	ctx: ILoadOptionsFunctions,
	path: string,
	lastId?: string,
): Promise<IDataObject[]> {
	const data = await apiRequest.call(ctx, {
		method: 'GET',
		path,
		qs: lastId ? { last_id: lastId } : undefined,
		retry: 'safe',
	});
	return Array.isArray(data) ? (data as IDataObject[]) : [];
}

/** The token for the next page: the last id of a full page. */
function nextToken(records: IDataObject[]): string | undefined {
	if (records.length < SERVICE_PAGE_SIZE) return undefined;
	const last = records[records.length - 1]?.id;
	return last === undefined || last === null ? undefined : String(last);
}

export function subjectLabel(person: IDataObject): string {
	const parts = [
		String(person.social_name ?? '(no name)'),
		maskDocument(person.document_type, person.document_number),
	];
	if (person.status) parts.push(String(person.status));
	return parts.filter((part) => part !== '').join(' · ');
}

export function subscriptionLabel(subscription: IDataObject, customer?: string): string {
	const money = [subscription.currency, subscription.value].filter(Boolean).join(' ');
	const every = subscription.frequency ? `every ${String(subscription.frequency)}` : '';
	return [
		customer ?? `customer ${String(subscription.subject_id ?? '?').slice(0, 8)}`,
		[money, every].filter(Boolean).join(' '),
		subscription.status,
	]
		.filter((part) => part !== undefined && part !== null && String(part) !== '')
		.map(String)
		.join(' · ');
}

/** How a transaction was paid, from the fields it has. */
export function paymentMethod(transaction: IDataObject): string {
	if (transaction.dynamic_pix_code) return 'PIX';
	if (transaction.from_credit_card) return 'card';
	if (
		transaction.bar_code ||
		transaction.digital_line ||
		(transaction.meta as IDataObject | undefined)?.boleto
	)
		return 'boleto';
	if (transaction.subject_is_receiver === true) return 'payout';
	return 'transfer';
}

export function transactionLabel(transaction: IDataObject, customer?: string): string {
	const money = [transaction.currency, transaction.value].filter(Boolean).join(' ');
	const date = String(transaction.inserted_at ?? '')
		.replace('T', ' ')
		.slice(0, 16);
	return [money, paymentMethod(transaction), transaction.status, date, customer]
		.filter((part) => part !== undefined && part !== null && String(part) !== '')
		.map(String)
		.join(' · ');
}

export function invoiceLabel(invoice: IDataObject): string {
	return [
		`Invoice ${String(invoice.id ?? '').slice(0, 8)}`,
		invoice.status,
		invoice.due_date ?? invoice.due_at,
		invoice.subscription_id
			? `subscription ${String(invoice.subscription_id).slice(0, 8)}`
			: undefined,
	]
		.filter((part) => part !== undefined && part !== null && String(part) !== '')
		.map(String)
		.join(' · ');
}

/** Customers, by name and masked document, searchable by name or document digits. */
export async function searchSubjects(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const people = await page(this, '/subject/people', paginationToken);
	const results: INodeListSearchItems[] = people
		.filter((person) =>
			matches(filter, subjectLabel(person), person.document_number, person.id, person.email),
		)
		.map((person) => ({ name: subjectLabel(person), value: String(person.id) }));
	return { results, paginationToken: nextToken(people) };
}

/** Subscriptions, by customer, value, frequency and status. */
export async function searchSubscriptions(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	// GET /subscriptions returns all of them (no paging in the spec): one request, no next page.
	const [subscriptions, people] = await Promise.all([
		page(this, '/subscriptions'),
		page(this, '/subject/people'),
	]);
	const names = new Map(
		people.map((person) => [String(person.id), String(person.social_name ?? '')]),
	);
	const results = subscriptions
		.map((subscription) => ({
			name: subscriptionLabel(
				subscription,
				names.get(String(subscription.subject_id)) || undefined,
			),
			value: String(subscription.id),
			subscription,
		}))
		.filter(({ name, subscription }) => matches(filter, name, subscription.id))
		.map(({ name, value }) => ({ name, value }));
	return { results };
}

/**
 * Transactions, by value, method, status and date. The service lists transactions per customer
 * only, so this reads the customers whose name or document matches the search (five per page)
 * and lists their transactions.
 */
export async function searchTransactions(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const people = (await page(this, '/subject/people')).filter((person) =>
		matches(filter, subjectLabel(person), person.document_number, person.id),
	);
	const offset = Number(paginationToken ?? 0) || 0;
	const customers = people.slice(offset, offset + CUSTOMERS_PER_TRANSACTION_PAGE);
	const lists = await Promise.all(
		customers.map(async (person) => ({
			person,
			transactions: await page(
				this,
				`/subject/${encodeURIComponent(String(person.id))}/transactions`,
			),
		})),
	);
	const results: INodeListSearchItems[] = lists.flatMap(({ person, transactions }) =>
		transactions.map((transaction) => ({
			name: transactionLabel(transaction, String(person.social_name ?? '')),
			value: String(transaction.id),
		})),
	);
	const next = offset + CUSTOMERS_PER_TRANSACTION_PAGE;
	return { results, paginationToken: next < people.length ? String(next) : undefined };
}

/**
 * A PSE bank's code and name. The list's field names are not published (FacilitaPay's public
 * Python client only reads the list): the request's `financial_institution_code` and a matching
 * `financial_institution_name` are read first, then the usual `code`/`name`/`id`/`description`.
 */
export function pseBank(bank: IDataObject): { code: string; name: string } | undefined {
	const code = bank.financial_institution_code ?? bank.code ?? bank.id;
	if (code === undefined || code === null || String(code).trim() === '') return undefined;
	const name =
		bank.financial_institution_name ?? bank.name ?? bank.description ?? bank.bank_name ?? '';
	return { code: String(code).trim(), name: String(name).trim() };
}

/**
 * Colombia's PSE banks (`GET /pse/financial_institutions`), by name and code. When the list cannot
 * be read, the picker says so and points to By ID: the payment itself needs only the bank's code.
 */
export async function searchPseBanks(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	let banks: IDataObject[];
	try {
		banks = await page(this, '/pse/financial_institutions');
	} catch (error) {
		throw new NodeOperationError(
			this.getNode(),
			`FacilitaPay's PSE bank list could not be read: ${(error as Error).message}`,
			{
				description:
					'Choose By ID in PSE Bank and enter the PSE code of the customer’s bank (e.g. 1007); the payment is sent without the list.',
			},
		);
	}
	const results: INodeListSearchItems[] = banks
		.map((bank) => pseBank(bank))
		.filter((bank): bank is { code: string; name: string } => bank !== undefined)
		.map((bank) => ({
			name: bank.name ? `${bank.name} (${bank.code})` : bank.code,
			value: bank.code,
		}))
		.filter((bank) => matches(filter, bank.name, bank.value))
		.sort((first, second) => first.name.localeCompare(second.name));
	return { results };
}

/** Invoices, by status, due date and subscription. */
export async function searchInvoices(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const invoices = await page(this, '/subscriptions/invoices', paginationToken);
	const results = invoices
		.filter((invoice) =>
			matches(filter, invoiceLabel(invoice), invoice.id, invoice.subscription_id),
		)
		.map((invoice) => ({ name: invoiceLabel(invoice), value: String(invoice.id) }));
	return { results, paginationToken: nextToken(invoices) };
}
