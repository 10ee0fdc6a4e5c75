/**
 * Subscriptions, invoices and charges (card and automatic PIX), following the Schedule rules 1–5:
 * 1. each invoice's first attempt at 06:00 UTC on its due date (or at once, on the next clock
 *    tick, if that moment has already passed);
 * 2. retries after a failed charge: frequency `day` → 4 hours later; automatic PIX → every second
 *    day; others → once a day (06:00 UTC); up to `total_retry_attempts` (no retry for the first
 *    invoice); exhausted → subscription canceled;
 * 3. month-end rule for month/quarter/semester/year (later invoices revert to the original day);
 * 4. trial_days delay only the first invoice; 5. free_days shift the whole schedule.
 */
import { randomUUID } from 'node:crypto';
import { Errors, isBlank, requireMoney, toBool } from '../validation.mjs';
import { check, invalid, notFound } from '../errors.mjs';
import { buildDynamicBrCode } from '../brcode.mjs';
import { CARD_SUBJECT_FIELDS } from './transactions.mjs';

export const FREQUENCIES = ['day', 'week', 'month', 'quarter', 'semester', 'year'];
export const MCC_CODES = ['8999', '5045', '4722', '8299', '5947', '5065', '7372'];
export const CHALLENGE_WINDOW_SIZES = ['fullPage', '250x400', '390x400', '500x600', '600x400'];
export const THREEDS_REQUIRED = [
	'httpAcceptBrowserValue', 'httpBrowserLanguage', 'httpBrowserJavaEnabled', 'httpBrowserJavaScriptEnabled',
	'httpBrowserColorDepth', 'httpBrowserScreenHeight', 'httpBrowserScreenWidth', 'httpBrowserTimeDifference',
	'userAgentBrowserValue', 'ipAddress', 'challengeWindowSize',
];
/** A card number that always declines. */
export const DECLINED_CARD = '4000000000000002';
export const QR_CODE_READY_EVENT = 'subscription_qr_code_ready';
const DAY = 86400000;
const MONTHS = { month: 1, quarter: 3, semester: 6, year: 12 };

/** @param {string} date YYYY-MM-DD @param {number} days */
export function addDays(date, days) {
	return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** k-th date after `anchor` for a frequency, with the month-end rule (always from the anchor). */
export function addPeriods(anchor, frequency, k) {
	if (frequency === 'day') return addDays(anchor, k);
	if (frequency === 'week') return addDays(anchor, 7 * k);
	const [y, m, d] = anchor.split('-').map(Number);
	const total = m - 1 + MONTHS[frequency] * k;
	const year = y + Math.floor(total / 12);
	const month = (total % 12) + 1;
	const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
	return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** Due date of invoice `index` (0-based) under rules 3–5. */
export function dueDate(sub, index) {
	const anchor = addDays(sub.start_date, sub.free_days);
	if (index === 0) return addDays(anchor, sub.trial_days);
	return addPeriods(anchor, sub.frequency, index);
}

function validateCard(errors, card, prefix, full) {
	const p = (f) => `${prefix}${f}`;
	if (full && card.card_type !== undefined && !['credit', 'debit'].includes(card.card_type)) errors.add(p('card_type'), 'must be credit or debit');
	if (isBlank(card.card_number)) errors.add(p('card_number'), "can't be blank");
	else if (!/^\d+$/.test(String(card.card_number))) errors.add(p('card_number'), 'must contain only digits, without spaces');
	else if (String(card.card_number).length < 13) errors.add(p('card_number'), 'must have at least 13 digits');
	else if (String(card.card_number).length > 19) errors.add(p('card_number'), 'must have at most 19 digits');
	if (isBlank(card.card_expiration_date)) errors.add(p('card_expiration_date'), "can't be blank");
	else {
		const m = /^(0[1-9]|1[0-2])\/(\d{4})$/.exec(String(card.card_expiration_date));
		if (!m) errors.add(p('card_expiration_date'), 'must be in the form MM/YYYY');
		else {
			const endOfMonth = Date.UTC(Number(m[2]), Number(m[1]), 1);
			if (endOfMonth <= full.now) errors.add(p('card_expiration_date'), 'is in the past (the card has expired)');
		}
	}
	if (isBlank(card.card_brand)) errors.add(p('card_brand'), "can't be blank");
	if (isBlank(card.card_security_code)) errors.add(p('card_security_code'), "can't be blank");
	else if (!/^\d{3}$/.test(String(card.card_security_code))) errors.add(p('card_security_code'), 'must be 3 digits');
	if (isBlank(card.fullname)) errors.add(p('fullname'), "can't be blank");
	else if (String(card.fullname).trim().split(/\s+/).length < 2) errors.add(p('fullname'), "must be the cardholder's full name (first and last name)");
}

export function createSubscriptions(ctx) {
	const { state, clock } = ctx;

	function get(id) {
		const s = state.subscriptions.get(id);
		if (!s) throw notFound();
		return s;
	}

	function view(s) {
		const out = {};
		for (const [k, v] of Object.entries(s)) if (!k.startsWith('_')) out[k] = v;
		out.invoices = invoicesOf(s).map(invoiceView);
		return out;
	}

	function invoicesOf(s) {
		return s._invoiceIds.map((id) => state.invoices.get(id));
	}

	function invoiceView(inv) {
		const out = {};
		for (const [k, v] of Object.entries(inv)) if (!k.startsWith('_')) out[k] = v;
		return out;
	}

	function create(body) {
		const b = body?.subscription;
		const errors = new Errors();
		if (!b || typeof b !== 'object' || Array.isArray(b)) {
			errors.add('subscription', "can't be blank");
			check(errors);
		}
		requireMoney(errors, b, 'value');
		if (isBlank(b.currency)) errors.add('currency', "can't be blank");
		else if (b.currency !== 'BRL') errors.add('currency', 'only BRL is accepted');
		const hasCard = b.from_card !== undefined && b.from_card !== null;
		const hasPix = !isBlank(b.from_bank_account_id);
		if (isBlank(b.frequency)) errors.add('frequency', "can't be blank");
		else if (!FREQUENCIES.includes(b.frequency)) errors.add('frequency', `must be one of: ${FREQUENCIES.join(', ')}`);
		else if (hasPix && b.frequency === 'day') errors.add('frequency', 'day is not allowed for automatic PIX');
		const int = (f, min, max, required) => {
			const v = b[f];
			if (v === undefined || v === null || v === '') {
				if (required) errors.add(f, "can't be blank");
				return;
			}
			if (!Number.isInteger(Number(v)) || typeof v === 'boolean') errors.add(f, 'must be an integer');
			else if (Number(v) < min || (max !== undefined && Number(v) > max)) errors.add(f, max === undefined ? `must be at least ${min}` : `must be between ${min} and ${max}`);
		};
		int('cycles', 1, undefined, true);
		int('trial_days', 0, 3650, false);
		int('free_days', 0, 3650, false);
		int('total_retry_attempts', 0, 3, false);
		if (b.description !== undefined && b.description !== null && typeof b.description !== 'string') errors.add('description', 'must be a string');
		if (b.meta !== undefined && b.meta !== null && (typeof b.meta !== 'object' || Array.isArray(b.meta))) errors.add('meta', 'must be an object');
		let subject = null;
		if (isBlank(b.subject_id)) errors.add('subject_id', "can't be blank");
		else if (!(subject = state.subjects.get(b.subject_id))) errors.add('subject_id', 'was not found');
		if (isBlank(b.to_bank_account_id)) errors.add('to_bank_account_id', "can't be blank");
		else if (!state.bankAccounts.has(b.to_bank_account_id)) errors.add('to_bank_account_id', 'was not found');
		else if (!state.accountPurposes[b.to_bank_account_id]?.partner) errors.add('to_bank_account_id', "must be one of the partner's internal or international accounts");
		if (hasCard && hasPix) errors.add('from_bank_account_id', 'give either from_card (card) or from_bank_account_id (automatic PIX), not both');
		else if (!hasCard && !hasPix) errors.add('from_card', "can't be blank: give from_card (card) or from_bank_account_id (automatic PIX)");
		if (hasPix) {
			const a = state.bankAccounts.get(b.from_bank_account_id);
			if (!a || !state.accountPurposes[a.id]?.partner || a.currency !== 'BRL' || !a.pix_info?.key) {
				errors.add('from_bank_account_id', "must be the partner's exclusive BRL bank account with a PIX key");
			}
		}
		if (hasCard) {
			const c = b.from_card;
			if (typeof c !== 'object' || Array.isArray(c)) errors.add('from_card', 'must be an object');
			else {
				validateCard(errors, c, 'from_card.', { now: clock.now() });
				const meta = c.meta && typeof c.meta === 'object' ? c.meta : {};
				if (isBlank(meta.df_reference_id)) errors.add('from_card.meta.df_reference_id', "can't be blank");
				if (isBlank(meta.mcc)) errors.add('from_card.meta.mcc', "can't be blank");
				else if (!MCC_CODES.includes(String(meta.mcc))) errors.add('from_card.meta.mcc', `must be one of: ${MCC_CODES.join(', ')}`);
				const t = c.threeds;
				if (!t || typeof t !== 'object') errors.add('from_card.threeds', "can't be blank");
				else {
					for (const f of THREEDS_REQUIRED) if (isBlank(t[f])) errors.add(`from_card.threeds.${f}`, "can't be blank");
					for (const f of ['httpBrowserJavaEnabled', 'httpBrowserJavaScriptEnabled']) {
						if (!isBlank(t[f]) && toBool(t[f]) === undefined) errors.add(`from_card.threeds.${f}`, 'must be "true" or "false"');
					}
					for (const f of ['httpBrowserColorDepth', 'httpBrowserScreenHeight', 'httpBrowserScreenWidth']) {
						if (!isBlank(t[f]) && !/^\d+$/.test(String(t[f]))) errors.add(`from_card.threeds.${f}`, 'must be a number');
					}
					if (!isBlank(t.httpBrowserTimeDifference) && !/^-?\d+$/.test(String(t.httpBrowserTimeDifference))) errors.add('from_card.threeds.httpBrowserTimeDifference', 'must be a number of minutes');
					if (!isBlank(t.challengeWindowSize) && !CHALLENGE_WINDOW_SIZES.includes(t.challengeWindowSize)) {
						errors.add('from_card.threeds.challengeWindowSize', `must be one of: ${CHALLENGE_WINDOW_SIZES.join(', ')}`);
					}
				}
				if (subject) {
					const missing = CARD_SUBJECT_FIELDS.filter((f) => isBlank(subject[f]));
					if (missing.length) errors.add('subject_id', `the subject must have ${missing.join(', ')} registered for card payments; update it with PUT /subject/people/:id`);
				}
			}
		}
		check(errors);
		const now = clock.iso();
		const s = {
			id: randomUUID(),
			status: 'pending',
			payment_method: hasCard ? 'card' : 'automatic_pix',
			subject_id: subject.id,
			value: b.value,
			currency: 'BRL',
			frequency: b.frequency,
			cycles: Number(b.cycles),
			trial_days: Number(b.trial_days ?? 0),
			free_days: Number(b.free_days ?? 0),
			total_retry_attempts: Number(b.total_retry_attempts ?? 0),
			description: b.description ?? null,
			to_bank_account_id: b.to_bank_account_id,
			from_bank_account_id: hasPix ? b.from_bank_account_id : null,
			from_card: hasCard ? maskCard(b.from_card) : null,
			from_pix: null,
			meta: b.meta ?? {},
			start_date: now.slice(0, 10),
			next_due_date: null,
			canceled_by_payer: null,
			canceled_reason: null,
			canceled_at: null,
			completed_at: null,
			inserted_at: now,
			updated_at: now,
			_invoiceIds: [],
			_cardNumber: hasCard ? String(b.from_card.card_number) : null,
			_declineNext: 0,
		};
		state.subscriptions.set(s.id, s);
		if (hasCard) scheduleInvoice(s, 0);
		else clock.schedule(clock.now(), () => generateQrCode(s), `automatic PIX QR code of ${s.id}`);
		return s;
	}

	function maskCard(c) {
		const n = String(c.card_number);
		return {
			card_type: c.card_type ?? 'credit',
			card_brand: c.card_brand,
			last4: n.slice(-4),
			card_expiration_date: c.card_expiration_date,
			fullname: c.fullname,
		};
	}

	function generateQrCode(s) {
		if (s.status !== 'pending' || s.from_pix) return;
		const loc = `${ctx.publicHost()}/_sandbox/pix/rec/${s.id.replace(/-/g, '')}`;
		s.from_pix = {
			status: 'waiting_authorization',
			qr_code: buildDynamicBrCode({ location: loc, value: s.value, reference: s.id.replace(/-/g, '').slice(0, 25), recurrence: loc }),
			generated_at: clock.iso(),
			authorized_at: null,
		};
		s.updated_at = clock.iso();
		ctx.emit(QR_CODE_READY_EVENT, { subscription: { id: s.id, status: s.status, subject_id: s.subject_id } });
	}

	function scheduleInvoice(s, index) {
		const due = dueDate(s, index);
		const inv = {
			id: randomUUID(),
			subscription_id: s.id,
			subject_id: s.subject_id,
			status: 'pending',
			cycle: index + 1,
			value: s.value,
			currency: s.currency,
			due_date: due,
			next_attempt_at: null,
			paid_at: null,
			charges: [],
			inserted_at: clock.iso(),
			updated_at: clock.iso(),
			_task: null,
		};
		state.invoices.set(inv.id, inv);
		s._invoiceIds.push(inv.id);
		s.next_due_date = due;
		planAttempt(s, inv, Date.parse(`${due}T06:00:00Z`));
		return inv;
	}

	function planAttempt(s, inv, at) {
		const when = Math.max(at, clock.now());
		inv.next_attempt_at = new Date(when).toISOString().slice(0, 19) + 'Z';
		inv._task = clock.schedule(when, () => attempt(s, inv), `charge of invoice ${inv.id} (cycle ${inv.cycle})`);
	}

	function decide(s) {
		if (s._declineNext > 0) {
			s._declineNext--;
			return { ok: false, reason: s.payment_method === 'card' ? 'card_declined' : 'insufficient_funds' };
		}
		if (s._cardNumber === DECLINED_CARD) return { ok: false, reason: 'card_declined' };
		return { ok: true };
	}

	function attempt(s, inv) {
		inv._task = null;
		if (s.status === 'canceled' || s.status === 'completed' || inv.status !== 'pending') return;
		if (s.payment_method === 'automatic_pix' && s.from_pix?.status !== 'authorized') return;
		const outcome = decide(s);
		const charge = {
			id: randomUUID(),
			invoice_id: inv.id,
			status: outcome.ok ? 'succeeded' : 'failed',
			attempt: inv.charges.length + 1,
			value: inv.value,
			failure_reason: outcome.ok ? null : outcome.reason,
			attempted_at: clock.iso(),
		};
		inv.charges.push(charge);
		inv.next_attempt_at = null;
		inv.updated_at = clock.iso();
		s.updated_at = clock.iso();
		if (outcome.ok) {
			inv.status = 'paid';
			inv.paid_at = clock.iso();
			ctx.emit('invoice_paid', { invoice: { id: inv.id, status: inv.status, subject_id: inv.subject_id, subscription_id: s.id } });
			if (s.status === 'pending') activate(s);
			if (inv.cycle >= s.cycles) {
				s.status = 'completed';
				s.completed_at = clock.iso();
				s.next_due_date = null;
				ctx.emit('subscription_completed', { subscription: { id: s.id, status: s.status, subject_id: s.subject_id } });
			} else scheduleInvoice(s, inv.cycle);
			return;
		}
		const failures = inv.charges.filter((c) => c.status === 'failed').length;
		if (inv.cycle === 1 && s.status === 'pending') {
			// card, first invoice: no retries; the subscription waits for a new card (threeds_challenge)
			inv.status = 'failed';
			return;
		}
		const retriesAllowed = inv.cycle === 1 ? 0 : s.total_retry_attempts;
		if (failures - 1 < retriesAllowed) {
			let at;
			if (s.frequency === 'day') at = clock.now() + 4 * 3600000;
			else {
				const days = s.payment_method === 'automatic_pix' ? 2 : 1;
				at = Date.parse(`${addDays(clock.iso().slice(0, 10), days)}T06:00:00Z`);
			}
			planAttempt(s, inv, at);
			return;
		}
		inv.status = 'failed';
		cancel(s, { byPayer: false, reason: 'retry_attempts_exhausted' });
	}

	function activate(s) {
		s.status = 'active';
		s.updated_at = clock.iso();
		ctx.emit('subscription_activated', { subscription: { id: s.id, status: s.status, subject_id: s.subject_id } });
	}

	function cancel(s, { byPayer, reason }) {
		s.status = 'canceled';
		s.canceled_by_payer = byPayer;
		s.canceled_reason = reason;
		s.canceled_at = clock.iso();
		s.updated_at = clock.iso();
		s.next_due_date = null;
		for (const inv of invoicesOf(s)) {
			if (inv.status === 'pending') {
				clock.cancel(inv._task);
				inv.status = 'canceled';
				inv.next_attempt_at = null;
				inv.updated_at = clock.iso();
			}
		}
		ctx.emit('subscription_canceled', {
			subscription: { id: s.id, status: s.status, subject_id: s.subject_id, canceled_by_payer: byPayer, canceled_reason: reason },
		});
	}

	/** PUT /subscriptions/:id/cancel (partner) and the payer's cancellation (control endpoint). */
	function cancelActive(id, body, byPayer) {
		const s = get(id);
		if (!byPayer && isBlank(body?.reason)) throw invalid('reason', "can't be blank");
		if (s.status !== 'active') throw invalid('status', `only an active subscription can be canceled (this one is ${s.status})`);
		cancel(s, { byPayer, reason: body?.reason ?? 'canceled_by_payer' });
		return s;
	}

	/** The payer scans the automatic PIX QR code and authorises the recurrence. */
	function authorize(id) {
		const s = get(id);
		if (s.payment_method !== 'automatic_pix') throw invalid('payment_method', 'only an automatic PIX subscription is authorised by the payer');
		if (s.status !== 'pending') throw invalid('status', `the subscription is ${s.status}; only a pending one can be authorised`);
		if (!s.from_pix) throw invalid('from_pix', 'the QR code is not generated yet; advance the clock (POST /_sandbox/clock/advance {"seconds":0})');
		s.from_pix.status = 'authorized';
		s.from_pix.authorized_at = clock.iso();
		activate(s);
		scheduleInvoice(s, 0);
		return s;
	}

	/** POST /subscriptions/:id/threeds_challenge: new card data; retries a failed first invoice. */
	function threedsChallenge(id, body) {
		const s = get(id);
		const errors = new Errors();
		const c = body?.credit_card;
		if (!c || typeof c !== 'object') errors.add('credit_card', "can't be blank");
		else validateCard(errors, c, 'credit_card.', { now: clock.now() });
		check(errors);
		if (s.payment_method !== 'card') throw invalid('payment_method', 'only a card subscription has a 3DS challenge');
		if (s.status !== 'pending') throw invalid('status', `the subscription is ${s.status}; the 3DS challenge applies to a pending subscription`);
		s.from_card = { ...s.from_card, ...maskCard({ ...c, card_type: s.from_card?.card_type }) };
		s._cardNumber = String(c.card_number);
		const first = invoicesOf(s)[0];
		if (first && first.status === 'failed') {
			first.status = 'pending';
			attempt(s, first);
		}
		return s;
	}

	function decline(id, count = 1) {
		const s = get(id);
		s._declineNext += Number(count) || 1;
		return s;
	}

	function invoicesFor(id) {
		const s = state.subscriptions.get(id);
		if (s) return invoicesOf(s).map(invoiceView);
		const inv = state.invoices.get(id);
		if (inv) return invoiceView(inv);
		throw notFound();
	}

	return { get, view, create, cancelActive, authorize, threedsChallenge, decline, invoicesFor, invoiceView };
}
