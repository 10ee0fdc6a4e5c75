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
	'httpAcceptBrowserValue',
	'httpBrowserLanguage',
	'httpBrowserJavaEnabled',
	'httpBrowserJavaScriptEnabled',
	'httpBrowserColorDepth',
	'httpBrowserScreenHeight',
	'httpBrowserScreenWidth',
	'httpBrowserTimeDifference',
	'userAgentBrowserValue',
	'ipAddress',
	'challengeWindowSize',
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

/** The date `count` periods after `anchor` for a frequency, with the month-end rule (always from the anchor). */
export function addPeriods(anchor, frequency, count) {
	if (frequency === 'day') return addDays(anchor, count);
	if (frequency === 'week') return addDays(anchor, 7 * count);
	const [startYear, startMonth, startDay] = anchor.split('-').map(Number);
	const total = startMonth - 1 + MONTHS[frequency] * count;
	const year = startYear + Math.floor(total / 12);
	const month = (total % 12) + 1;
	const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
	return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(startDay, last)).padStart(2, '0')}`;
}

/** Due date of invoice `index` (0-based) under rules 3–5. */
export function dueDate(sub, index) {
	const anchor = addDays(sub.start_date, sub.free_days);
	if (index === 0) return addDays(anchor, sub.trial_days);
	return addPeriods(anchor, sub.frequency, index);
}

function validateCard(errors, card, prefix, full) {
	const fieldPath = (field) => `${prefix}${field}`;
	if (full && card.card_type !== undefined && !['credit', 'debit'].includes(card.card_type))
		errors.add(fieldPath('card_type'), 'must be credit or debit');
	if (isBlank(card.card_number)) errors.add(fieldPath('card_number'), "can't be blank");
	else if (!/^\d+$/.test(String(card.card_number)))
		errors.add(fieldPath('card_number'), 'must contain only digits, without spaces');
	else if (String(card.card_number).length < 13)
		errors.add(fieldPath('card_number'), 'must have at least 13 digits');
	else if (String(card.card_number).length > 19)
		errors.add(fieldPath('card_number'), 'must have at most 19 digits');
	if (isBlank(card.card_expiration_date))
		errors.add(fieldPath('card_expiration_date'), "can't be blank");
	else {
		const match = /^(0[1-9]|1[0-2])\/(\d{4})$/.exec(String(card.card_expiration_date));
		if (!match) errors.add(fieldPath('card_expiration_date'), 'must be in the form MM/YYYY');
		else {
			const endOfMonth = Date.UTC(Number(match[2]), Number(match[1]), 1);
			if (endOfMonth <= full.now)
				errors.add(fieldPath('card_expiration_date'), 'is in the past (the card has expired)');
		}
	}
	if (isBlank(card.card_brand)) errors.add(fieldPath('card_brand'), "can't be blank");
	if (isBlank(card.card_security_code))
		errors.add(fieldPath('card_security_code'), "can't be blank");
	else if (!/^\d{3}$/.test(String(card.card_security_code)))
		errors.add(fieldPath('card_security_code'), 'must be 3 digits');
	if (isBlank(card.fullname)) errors.add(fieldPath('fullname'), "can't be blank");
	else if (String(card.fullname).trim().split(/\s+/).length < 2)
		errors.add(fieldPath('fullname'), "must be the cardholder's full name (first and last name)");
}

export function createSubscriptions(ctx) {
	const { state, clock } = ctx;

	function get(id) {
		const subscription = state.subscriptions.get(id);
		if (!subscription) throw notFound();
		return subscription;
	}

	function view(subscription) {
		const out = {};
		for (const [key, value] of Object.entries(subscription))
			if (!key.startsWith('_')) out[key] = value;
		out.invoices = invoicesOf(subscription).map(invoiceView);
		return out;
	}

	function invoicesOf(subscription) {
		return subscription._invoiceIds.map((id) => state.invoices.get(id));
	}

	function invoiceView(inv) {
		const out = {};
		for (const [key, value] of Object.entries(inv)) if (!key.startsWith('_')) out[key] = value;
		return out;
	}

	function create(body) {
		const input = body?.subscription;
		const errors = new Errors();
		if (!input || typeof input !== 'object' || Array.isArray(input)) {
			errors.add('subscription', "can't be blank");
			check(errors);
		}
		requireMoney(errors, input, 'value');
		if (isBlank(input.currency)) errors.add('currency', "can't be blank");
		else if (input.currency !== 'BRL') errors.add('currency', 'only BRL is accepted');
		const hasCard = input.from_card !== undefined && input.from_card !== null;
		const hasPix = !isBlank(input.from_bank_account_id);
		if (isBlank(input.frequency)) errors.add('frequency', "can't be blank");
		else if (!FREQUENCIES.includes(input.frequency))
			errors.add('frequency', `must be one of: ${FREQUENCIES.join(', ')}`);
		else if (hasPix && input.frequency === 'day')
			errors.add('frequency', 'day is not allowed for automatic PIX');
		const int = (field, min, max, required) => {
			const value = input[field];
			if (value === undefined || value === null || value === '') {
				if (required) errors.add(field, "can't be blank");
				return;
			}
			if (!Number.isInteger(Number(value)) || typeof value === 'boolean')
				errors.add(field, 'must be an integer');
			else if (Number(value) < min || (max !== undefined && Number(value) > max))
				errors.add(
					field,
					max === undefined ? `must be at least ${min}` : `must be between ${min} and ${max}`,
				);
		};
		int('cycles', 1, undefined, true);
		int('trial_days', 0, 3650, false);
		int('free_days', 0, 3650, false);
		int('total_retry_attempts', 0, 3, false);
		if (
			input.description !== undefined &&
			input.description !== null &&
			typeof input.description !== 'string'
		)
			errors.add('description', 'must be a string');
		if (
			input.meta !== undefined &&
			input.meta !== null &&
			(typeof input.meta !== 'object' || Array.isArray(input.meta))
		)
			errors.add('meta', 'must be an object');
		let subject = null;
		if (isBlank(input.subject_id)) errors.add('subject_id', "can't be blank");
		else if (!(subject = state.subjects.get(input.subject_id)))
			errors.add('subject_id', 'was not found');
		if (isBlank(input.to_bank_account_id)) errors.add('to_bank_account_id', "can't be blank");
		else if (!state.bankAccounts.has(input.to_bank_account_id))
			errors.add('to_bank_account_id', 'was not found');
		else if (!state.accountPurposes[input.to_bank_account_id]?.partner)
			errors.add(
				'to_bank_account_id',
				"must be one of the partner's internal or international accounts",
			);
		if (hasCard && hasPix)
			errors.add(
				'from_bank_account_id',
				'give either from_card (card) or from_bank_account_id (automatic PIX), not both',
			);
		else if (!hasCard && !hasPix)
			errors.add(
				'from_card',
				"can't be blank: give from_card (card) or from_bank_account_id (automatic PIX)",
			);
		if (hasPix) {
			const account = state.bankAccounts.get(input.from_bank_account_id);
			if (
				!account ||
				!state.accountPurposes[account.id]?.partner ||
				account.currency !== 'BRL' ||
				!account.pix_info?.key
			) {
				errors.add(
					'from_bank_account_id',
					"must be the partner's exclusive BRL bank account with a PIX key",
				);
			}
		}
		if (hasCard) {
			const card = input.from_card;
			if (typeof card !== 'object' || Array.isArray(card))
				errors.add('from_card', 'must be an object');
			else {
				validateCard(errors, card, 'from_card.', { now: clock.now() });
				const meta = card.meta && typeof card.meta === 'object' ? card.meta : {};
				if (isBlank(meta.df_reference_id))
					errors.add('from_card.meta.df_reference_id', "can't be blank");
				if (isBlank(meta.mcc)) errors.add('from_card.meta.mcc', "can't be blank");
				else if (!MCC_CODES.includes(String(meta.mcc)))
					errors.add('from_card.meta.mcc', `must be one of: ${MCC_CODES.join(', ')}`);
				const threeds = card.threeds;
				if (!threeds || typeof threeds !== 'object')
					errors.add('from_card.threeds', "can't be blank");
				else {
					for (const field of THREEDS_REQUIRED)
						if (isBlank(threeds[field])) errors.add(`from_card.threeds.${field}`, "can't be blank");
					for (const field of ['httpBrowserJavaEnabled', 'httpBrowserJavaScriptEnabled']) {
						if (!isBlank(threeds[field]) && toBool(threeds[field]) === undefined)
							errors.add(`from_card.threeds.${field}`, 'must be "true" or "false"');
					}
					for (const field of [
						'httpBrowserColorDepth',
						'httpBrowserScreenHeight',
						'httpBrowserScreenWidth',
					]) {
						if (!isBlank(threeds[field]) && !/^\d+$/.test(String(threeds[field])))
							errors.add(`from_card.threeds.${field}`, 'must be a number');
					}
					if (
						!isBlank(threeds.httpBrowserTimeDifference) &&
						!/^-?\d+$/.test(String(threeds.httpBrowserTimeDifference))
					)
						errors.add(
							'from_card.threeds.httpBrowserTimeDifference',
							'must be a number of minutes',
						);
					if (
						!isBlank(threeds.challengeWindowSize) &&
						!CHALLENGE_WINDOW_SIZES.includes(threeds.challengeWindowSize)
					) {
						errors.add(
							'from_card.threeds.challengeWindowSize',
							`must be one of: ${CHALLENGE_WINDOW_SIZES.join(', ')}`,
						);
					}
				}
				if (subject) {
					const missing = CARD_SUBJECT_FIELDS.filter((field) => isBlank(subject[field]));
					if (missing.length)
						errors.add(
							'subject_id',
							`the subject must have ${missing.join(', ')} registered for card payments; update it with PUT /subject/people/:id`,
						);
				}
			}
		}
		check(errors);
		const now = clock.iso();
		const subscription = {
			id: randomUUID(),
			status: 'pending',
			payment_method: hasCard ? 'card' : 'automatic_pix',
			subject_id: subject.id,
			value: input.value,
			currency: 'BRL',
			frequency: input.frequency,
			cycles: Number(input.cycles),
			trial_days: Number(input.trial_days ?? 0),
			free_days: Number(input.free_days ?? 0),
			total_retry_attempts: Number(input.total_retry_attempts ?? 0),
			description: input.description ?? null,
			to_bank_account_id: input.to_bank_account_id,
			from_bank_account_id: hasPix ? input.from_bank_account_id : null,
			from_card: hasCard ? maskCard(input.from_card) : null,
			from_pix: null,
			meta: input.meta ?? {},
			start_date: now.slice(0, 10),
			next_due_date: null,
			canceled_by_payer: null,
			canceled_reason: null,
			canceled_at: null,
			completed_at: null,
			inserted_at: now,
			updated_at: now,
			_invoiceIds: [],
			_cardNumber: hasCard ? String(input.from_card.card_number) : null,
			_declineNext: 0,
		};
		state.subscriptions.set(subscription.id, subscription);
		if (hasCard) scheduleInvoice(subscription, 0);
		else
			clock.schedule(
				clock.now(),
				() => generateQrCode(subscription),
				`automatic PIX QR code of ${subscription.id}`,
			);
		return subscription;
	}

	function maskCard(card) {
		const number = String(card.card_number);
		return {
			card_type: card.card_type ?? 'credit',
			card_brand: card.card_brand,
			last4: number.slice(-4),
			card_expiration_date: card.card_expiration_date,
			fullname: card.fullname,
		};
	}

	function generateQrCode(subscription) {
		if (subscription.status !== 'pending' || subscription.from_pix) return;
		const loc = `${ctx.publicHost()}/_sandbox/pix/rec/${subscription.id.replace(/-/g, '')}`;
		subscription.from_pix = {
			status: 'waiting_authorization',
			qr_code: buildDynamicBrCode({
				location: loc,
				value: subscription.value,
				reference: subscription.id.replace(/-/g, '').slice(0, 25),
				recurrence: loc,
			}),
			generated_at: clock.iso(),
			authorized_at: null,
		};
		subscription.updated_at = clock.iso();
		ctx.emit(QR_CODE_READY_EVENT, {
			subscription: {
				id: subscription.id,
				status: subscription.status,
				subject_id: subscription.subject_id,
			},
		});
	}

	function scheduleInvoice(subscription, index) {
		const due = dueDate(subscription, index);
		const inv = {
			id: randomUUID(),
			subscription_id: subscription.id,
			subject_id: subscription.subject_id,
			status: 'pending',
			cycle: index + 1,
			value: subscription.value,
			currency: subscription.currency,
			due_date: due,
			next_attempt_at: null,
			paid_at: null,
			charges: [],
			inserted_at: clock.iso(),
			updated_at: clock.iso(),
			_task: null,
		};
		state.invoices.set(inv.id, inv);
		subscription._invoiceIds.push(inv.id);
		subscription.next_due_date = due;
		planAttempt(subscription, inv, Date.parse(`${due}T06:00:00Z`));
		return inv;
	}

	function planAttempt(subscription, inv, at) {
		const when = Math.max(at, clock.now());
		inv.next_attempt_at = new Date(when).toISOString().slice(0, 19) + 'Z';
		inv._task = clock.schedule(
			when,
			() => attempt(subscription, inv),
			`charge of invoice ${inv.id} (cycle ${inv.cycle})`,
		);
	}

	function decide(subscription) {
		if (subscription._declineNext > 0) {
			subscription._declineNext--;
			return {
				ok: false,
				reason: subscription.payment_method === 'card' ? 'card_declined' : 'insufficient_funds',
			};
		}
		if (subscription._cardNumber === DECLINED_CARD) return { ok: false, reason: 'card_declined' };
		return { ok: true };
	}

	function attempt(subscription, inv) {
		inv._task = null;
		if (
			subscription.status === 'canceled' ||
			subscription.status === 'completed' ||
			inv.status !== 'pending'
		)
			return;
		if (
			subscription.payment_method === 'automatic_pix' &&
			subscription.from_pix?.status !== 'authorized'
		)
			return;
		const outcome = decide(subscription);
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
		subscription.updated_at = clock.iso();
		if (outcome.ok) {
			inv.status = 'paid';
			inv.paid_at = clock.iso();
			ctx.emit('invoice_paid', {
				invoice: {
					id: inv.id,
					status: inv.status,
					subject_id: inv.subject_id,
					subscription_id: subscription.id,
				},
			});
			if (subscription.status === 'pending') activate(subscription);
			if (inv.cycle >= subscription.cycles) {
				subscription.status = 'completed';
				subscription.completed_at = clock.iso();
				subscription.next_due_date = null;
				ctx.emit('subscription_completed', {
					subscription: {
						id: subscription.id,
						status: subscription.status,
						subject_id: subscription.subject_id,
					},
				});
			} else scheduleInvoice(subscription, inv.cycle);
			return;
		}
		const failures = inv.charges.filter((charge) => charge.status === 'failed').length;
		if (inv.cycle === 1 && subscription.status === 'pending') {
			// card, first invoice: no retries; the subscription waits for a new card (threeds_challenge)
			inv.status = 'failed';
			return;
		}
		const retriesAllowed = inv.cycle === 1 ? 0 : subscription.total_retry_attempts;
		if (failures - 1 < retriesAllowed) {
			let at;
			if (subscription.frequency === 'day') at = clock.now() + 4 * 3600000;
			else {
				const days = subscription.payment_method === 'automatic_pix' ? 2 : 1;
				at = Date.parse(`${addDays(clock.iso().slice(0, 10), days)}T06:00:00Z`);
			}
			planAttempt(subscription, inv, at);
			return;
		}
		inv.status = 'failed';
		cancel(subscription, { byPayer: false, reason: 'retry_attempts_exhausted' });
	}

	function activate(subscription) {
		subscription.status = 'active';
		subscription.updated_at = clock.iso();
		ctx.emit('subscription_activated', {
			subscription: {
				id: subscription.id,
				status: subscription.status,
				subject_id: subscription.subject_id,
			},
		});
	}

	function cancel(subscription, { byPayer, reason }) {
		subscription.status = 'canceled';
		subscription.canceled_by_payer = byPayer;
		subscription.canceled_reason = reason;
		subscription.canceled_at = clock.iso();
		subscription.updated_at = clock.iso();
		subscription.next_due_date = null;
		for (const inv of invoicesOf(subscription)) {
			if (inv.status === 'pending') {
				clock.cancel(inv._task);
				inv.status = 'canceled';
				inv.next_attempt_at = null;
				inv.updated_at = clock.iso();
			}
		}
		ctx.emit('subscription_canceled', {
			subscription: {
				id: subscription.id,
				status: subscription.status,
				subject_id: subscription.subject_id,
				canceled_by_payer: byPayer,
				canceled_reason: reason,
			},
		});
	}

	/** PUT /subscriptions/:id/cancel (partner) and the payer's cancellation (control endpoint). */
	function cancelActive(id, body, byPayer) {
		const subscription = get(id);
		if (!byPayer && isBlank(body?.reason)) throw invalid('reason', "can't be blank");
		if (subscription.status !== 'active')
			throw invalid(
				'status',
				`only an active subscription can be canceled (this one is ${subscription.status})`,
			);
		cancel(subscription, { byPayer, reason: body?.reason ?? 'canceled_by_payer' });
		return subscription;
	}

	/** The payer scans the automatic PIX QR code and authorises the recurrence. */
	function authorize(id) {
		const subscription = get(id);
		if (subscription.payment_method !== 'automatic_pix')
			throw invalid(
				'payment_method',
				'only an automatic PIX subscription is authorised by the payer',
			);
		if (subscription.status !== 'pending')
			throw invalid(
				'status',
				`the subscription is ${subscription.status}; only a pending one can be authorised`,
			);
		if (!subscription.from_pix)
			throw invalid(
				'from_pix',
				'the QR code is not generated yet; advance the clock (POST /_sandbox/clock/advance {"seconds":0})',
			);
		subscription.from_pix.status = 'authorized';
		subscription.from_pix.authorized_at = clock.iso();
		activate(subscription);
		scheduleInvoice(subscription, 0);
		return subscription;
	}

	/** POST /subscriptions/:id/threeds_challenge: new card data; retries a failed first invoice. */
	function threedsChallenge(id, body) {
		const subscription = get(id);
		const errors = new Errors();
		const card = body?.credit_card;
		if (!card || typeof card !== 'object') errors.add('credit_card', "can't be blank");
		else validateCard(errors, card, 'credit_card.', { now: clock.now() });
		check(errors);
		if (subscription.payment_method !== 'card')
			throw invalid('payment_method', 'only a card subscription has a 3DS challenge');
		if (subscription.status !== 'pending')
			throw invalid(
				'status',
				`the subscription is ${subscription.status}; the 3DS challenge applies to a pending subscription`,
			);
		subscription.from_card = {
			...subscription.from_card,
			...maskCard({ ...card, card_type: subscription.from_card?.card_type }),
		};
		subscription._cardNumber = String(card.card_number);
		const first = invoicesOf(subscription)[0];
		if (first && first.status === 'failed') {
			first.status = 'pending';
			attempt(subscription, first);
		}
		return subscription;
	}

	function decline(id, count = 1) {
		const subscription = get(id);
		subscription._declineNext += Number(count) || 1;
		return subscription;
	}

	function invoicesFor(id) {
		const subscription = state.subscriptions.get(id);
		if (subscription) return invoicesOf(subscription).map(invoiceView);
		const inv = state.invoices.get(id);
		if (inv) return invoiceView(inv);
		throw notFound();
	}

	return {
		get,
		view,
		create,
		cancelActive,
		authorize,
		threedsChallenge,
		decline,
		invoicesFor,
		invoiceView,
	};
}
