import type { IDataObject } from 'n8n-workflow';

import type { ApiRequest } from '../../transport';

/**
 * What a run of money-moving requests adds up to, per currency, for the hints a person reads
 * ("12 payouts, 3,450.00 USD"). Money stays a string: values are added as decimal digits, never
 * as floats.
 */

/** The value and currency a request moves, when its body names them. */
export function moneyOf(request: ApiRequest): { value: string; currency: string } | undefined {
	const body = (request.body ?? {}) as IDataObject;
	const inner = (body.transaction ?? body.subscription ?? body) as IDataObject;
	const value = inner?.value;
	const currency = inner?.currency;
	if ((typeof value !== 'string' && typeof value !== 'number') || typeof currency !== 'string')
		return undefined;
	const text = String(value).trim();
	if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
	return { value: text, currency };
}

/** Adds two non-negative decimal strings exactly. */
export function addDecimal(a: string, b: string): string {
	const [aWhole, aFraction = ''] = a.split('.');
	const [bWhole, bFraction = ''] = b.split('.');
	const scale = Math.max(aFraction.length, bFraction.length);
	const units = (whole: string, fraction: string) =>
		BigInt(`${whole}${fraction.padEnd(scale, '0')}`);
	const sum = (units(aWhole, aFraction) + units(bWhole, bFraction))
		.toString()
		.padStart(scale + 1, '0');
	if (scale === 0) return sum;
	return `${sum.slice(0, -scale)}.${sum.slice(-scale)}`;
}

/** "1234567.80" → "1,234,567.80" (the hint's reading aid; the data keeps the plain string). */
function grouped(value: string): string {
	const [whole, fraction] = value.split('.');
	const withCommas = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
	return fraction === undefined ? withCommas : `${withCommas}.${fraction}`;
}

/** Totals per currency of the requests, as "3,450.00 USD + 120.00 BRL" (empty when none). */
export function totalsText(requests: ApiRequest[]): string {
	const totals = new Map<string, string>();
	for (const request of requests) {
		const money = moneyOf(request);
		if (!money) continue;
		totals.set(money.currency, addDecimal(totals.get(money.currency) ?? '0', money.value));
	}
	return [...totals.entries()]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([currency, total]) => `${grouped(total)} ${currency}`)
		.join(' + ');
}

/** "1 request" / "12 requests", with the operation's own noun when it has one. */
export function countText(count: number, noun = 'request'): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
