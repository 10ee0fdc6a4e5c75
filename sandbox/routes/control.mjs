/**
 * Control endpoints under /_sandbox (no authentication): they play the outside world (payers,
 * banks, the back office), move the virtual clock, inject faults and show what was received.
 * Every endpoint is documented in docs/sandbox.md.
 */
import { TIMESTAMP_FORMS } from '../clock.mjs';
import { Errors, isBlank } from '../validation.mjs';
import { check, invalid, notFound } from '../errors.mjs';
import { META_MODES } from '../metaMode.mjs';
import { MAX_BURST } from '../outcomes.mjs';

export function registerControlRoutes(app, ctx) {
	const body = (request) => (request.body && typeof request.body === 'object' ? request.body : {});
	const id = (request) => /** @type {any} */ (request.params).id;

	app.get('/accounts', async () => ({
		data: [...ctx.state.bankAccounts.values()]
			.filter((account) => ctx.state.accountPurposes[account.id])
			.map((account) => ({
				...account,
				purpose: ctx.state.accountPurposes[account.id].purpose,
				partner: ctx.state.accountPurposes[account.id].partner,
			})),
	}));

	app.post('/reset', async () => {
		ctx.webhooks.stop();
		await ctx.reset();
		return { data: { reset: true, now: ctx.clock.iso() } };
	});

	// ---- clock ----
	const clockView = () => ({
		now: ctx.clock.iso(),
		timestamps: ctx.clock.timestampForm(),
		pending: ctx.clock.pending(),
	});
	app.get('/clock', async () => ({ data: clockView() }));
	// How record timestamps are written, which the public material leaves open (docs vs live form).
	app.post('/clock', async (request) => {
		const { timestamps } = body(request);
		const errors = new Errors();
		if (!TIMESTAMP_FORMS.includes(timestamps))
			errors.add('timestamps', `must be one of: ${TIMESTAMP_FORMS.join(', ')}`);
		check(errors);
		ctx.clock.setTimestampForm(timestamps);
		return { data: clockView() };
	});
	app.post('/clock/advance', async (request) => {
		const amount = body(request);
		const errors = new Errors();
		const seconds =
			Number(amount.seconds ?? 0) +
			Number(amount.minutes ?? 0) * 60 +
			Number(amount.hours ?? 0) * 3600 +
			Number(amount.days ?? 0) * 86400;
		if (!Number.isFinite(seconds) || seconds < 0)
			errors.add('seconds', 'must be a number of seconds ≥ 0');
		check(errors);
		const advanced = await ctx.clock.advance(seconds * 1000);
		return {
			data: { now: advanced.now, tasks_run: advanced.tasks_run, pending: ctx.clock.pending() },
		};
	});

	// ---- payers and banks ----
	app.post('/transactions/:id/pay', async (request, reply) => {
		const { after_seconds: after, ...payment } = body(request);
		if (after !== undefined && after !== 0) {
			// Later, in real seconds: checked now, decided then (sandbox/outcomes.mjs).
			const success = payment.success === undefined ? true : payment.success;
			if (typeof success !== 'boolean') throw invalid('success', 'must be true or false');
			const outcome = success ? 'paid' : failedOutcome(id(request));
			return reply.code(202).send(scheduleOutcomes([id(request)], outcome, after, true));
		}
		const transaction = ctx.transactions.pay(id(request), payment);
		await ctx.webhooks.idle();
		return { data: ctx.transactions.view(transaction) };
	});
	// Charge and wait (issue 37): a charge expired or failed now or after real seconds, and bursts.
	for (const outcome of ['expire', 'fail']) {
		app.post(`/transactions/:id/${outcome}`, async (request, reply) => {
			const { after_seconds: after = 0 } = body(request);
			const scheduled = scheduleOutcomes(
				[id(request)],
				outcome === 'expire' ? 'expired' : 'failed',
				after,
				true,
			);
			if (after === 0) {
				await ctx.webhooks.idle();
				return { data: ctx.transactions.view(ctx.transactions.get(transactionOf(id(request)))) };
			}
			return reply.code(202).send(scheduled);
		});
	}
	app.post('/transactions/decide_many', async (request, reply) => {
		const { ids, outcome = 'paid', after_seconds: after = 0 } = body(request);
		if (
			!Array.isArray(ids) ||
			ids.length === 0 ||
			ids.length > MAX_BURST ||
			ids.some((one) => typeof one !== 'string')
		)
			throw invalid('ids', `must be a list of 1 to ${MAX_BURST} transaction (or checkout) ids`);
		const answer = scheduleOutcomes(ids, outcome, after, false);
		if (after === 0) await ctx.webhooks.idle();
		return reply.code(after === 0 ? 200 : 202).send(answer);
	});
	app.get('/outcomes', async () => ({ data: ctx.outcomes.list() }));
	app.get('/notifications', async () => ({ data: ctx.webhooks.listed() }));
	/** What `success: false` means for `id`: a checkout's or card's declined attempt, else expiry. */
	function failedOutcome(transactionId) {
		if (ctx.state.checkouts.has(transactionId)) return 'failed';
		return ctx.state.transactions.get(transactionId)?._kind === 'card' ? 'failed' : 'expired';
	}
	/** The transaction an outcome of `decisionId` moved (a checkout's latest attempt). */
	function transactionOf(decisionId) {
		const checkout = ctx.state.checkouts.get(decisionId);
		return checkout ? checkout.transaction_ids.at(-1) : decisionId;
	}
	/**
	 * Decides (now or later) through sandbox/outcomes.mjs. `single`: one id, whose refusal is the
	 * answer's error (422) rather than an entry of `refused`.
	 */
	function scheduleOutcomes(ids, outcome, after, single) {
		if (single) ctx.outcomes.check(ids[0], outcome); // its own error: 404, 422 with the field
		const { entry, refused } = ctx.outcomes.decide(ids, outcome, after);
		return {
			data: {
				ids: entry.ids,
				outcome,
				after_seconds: entry.after_seconds,
				due_at: new Date(entry.due_at_ms).toISOString(),
				done: entry.done_at_ms !== null,
				errors: entry.errors,
				refused,
			},
		};
	}
	app.post('/pix/receive', async (request) => receive('pix', request));
	// A burst: `count` static PIX receipts of one registered payer at once (one identified each).
	app.post('/pix/receive_many', async (request) => {
		const { count = 1, ...receipt } = body(request);
		if (!(Number.isInteger(count) && count > 0 && count <= 5000))
			throw invalid('count', 'must be a whole number from 1 to 5000');
		const transaction_ids = [];
		for (let n = 0; n < count; n++) {
			const received = ctx.transactions.receive('pix', receipt);
			if (!received.identified) throw invalid('document_number', 'is not a registered subject');
			transaction_ids.push(received.transaction.id);
		}
		return { data: { transaction_ids } };
	});
	app.post('/ted/receive', async (request) => receive('ted', request));
	async function receive(method, request) {
		const received = ctx.transactions.receive(method, body(request));
		await ctx.webhooks.idle();
		if (received.identified)
			return {
				data: { identified: true, transaction: ctx.transactions.view(received.transaction) },
			};
		const { _refundTask, ...bankTransaction } = received.bank_transaction;
		return { data: { identified: false, bank_transaction: bankTransaction } };
	}
	// What the spec leaves open, played on demand: when a card payment becomes identified.
	app.get('/play', async () => ({ data: ctx.transactions.play() }));
	app.post('/play', async (request) => ({ data: ctx.transactions.play(body(request)) }));
	// Whether GET /api/v1/pse/financial_institutions can give its list ({"listed": false}: 503).
	app.get('/pse/banks', async () => ({ data: ctx.localPayIns.playPseBanks() }));
	app.post('/pse/banks', async (request) => {
		const { listed } = body(request);
		if (typeof listed !== 'boolean') throw invalid('listed', 'must be true or false');
		return { data: ctx.localPayIns.playPseBanks({ listed }) };
	});
	// Where a dynamic CLABE asked with from_spei is answered ({"answer": "from_spei" | "payment_info"}).
	app.get('/spei', async () => ({ data: ctx.localPayIns.playSpeiAnswer() }));
	app.post('/spei', async (request) => {
		const { answer } = body(request);
		if (answer !== 'from_spei' && answer !== 'payment_info')
			throw invalid('answer', 'must be "from_spei" or "payment_info"');
		return { data: ctx.localPayIns.playSpeiAnswer({ answer }) };
	});
	app.post('/transactions/:id/identify', async (request) => {
		const transaction = ctx.transactions.identifyNow(id(request));
		await ctx.webhooks.idle();
		return { data: ctx.transactions.view(transaction) };
	});
	app.get('/pix/:ref', async (request) => {
		const ref = /** @type {any} */ (request.params).ref;
		const transaction = [...ctx.state.transactions.values()].find(
			(candidate) => candidate.id.replace(/-/g, '') === ref,
		);
		if (!transaction) throw notFound();
		return { data: ctx.transactions.view(transaction) };
	});
	app.get('/checkout/:id', async (request, reply) => {
		const checkout = ctx.state.checkouts.get(id(request));
		if (!checkout) throw notFound();
		return reply.type('text/html; charset=utf-8').send(checkoutPage(checkout));
	});
	app.get('/checkouts/:id', async (request) => {
		const checkout = ctx.state.checkouts.get(id(request));
		if (!checkout) throw notFound();
		return { data: checkout };
	});

	// ---- back office: subjects, authorisations, bank accounts, settlement ----
	app.post('/subjects', async (request) => {
		const { subject } = ctx.subjects.register(body(request).subject ?? body(request).person, {
			allTypes: true,
		});
		return { data: ctx.subjects.view(subject) };
	});
	app.post('/subjects/:id/approve', async (request) => {
		const approved = ctx.subjects.approve(id(request));
		await ctx.webhooks.idle();
		return {
			data: {
				...ctx.subjects.view(approved.subject),
				released_transaction_ids: approved.released_transaction_ids,
			},
		};
	});
	app.post('/subjects/:id/reprove', async (request) => {
		const subject = ctx.subjects.reprove(id(request), body(request));
		await ctx.webhooks.idle();
		return { data: ctx.subjects.view(subject) };
	});
	app.post('/authorizations/:id/approve', async (request) => ({
		data: ctx.marketplace.decide(id(request), true),
	}));
	app.post('/authorizations/:id/reprove', async (request) => ({
		data: ctx.marketplace.decide(id(request), false, body(request).reason),
	}));
	app.post('/bank_account_requests/:id/complete', async (request) => ({
		data: ctx.marketplace.view(ctx.marketplace.complete(id(request))),
	}));
	app.post('/settlement/run', async (request) => {
		const settled = ctx.transactions.settle(body(request));
		await ctx.webhooks.idle();
		return { data: settled };
	});
	app.post('/wires/grouped', async (request) => {
		const grouped = ctx.transactions.groupedWire(body(request));
		await ctx.webhooks.idle();
		return { data: grouped };
	});
	app.get('/wires', async () => ({ data: [...ctx.state.wires.values()] }));
	app.get('/exchanges', async () => ({ data: [...ctx.state.exchanges.values()] }));

	// ---- subscriptions: the payer and the card network ----
	app.post('/subscriptions/:id/authorize', async (request) => ({
		data: ctx.subscriptions.view(ctx.subscriptions.authorize(id(request))),
	}));
	app.post('/subscriptions/:id/payer_cancel', async (request) => ({
		data: ctx.subscriptions.view(
			ctx.subscriptions.cancelActive(
				id(request),
				{ reason: body(request).reason ?? 'canceled_by_payer' },
				true,
			),
		),
	}));
	app.post('/subscriptions/:id/decline', async (request) => {
		const count = body(request).count ?? 1;
		if (!(Number.isInteger(count) && count > 0))
			throw invalid('count', 'must be a positive integer');
		return { data: ctx.subscriptions.view(ctx.subscriptions.decline(id(request), count)) };
	});

	// ---- webhooks ----
	app.post('/deliveries/wait', async (request) => {
		await ctx.webhooks.idle({ redeliveries: body(request).redeliveries === true });
		return { data: { in_flight: 0 } };
	});
	app.get('/webhooks/delivery', async () => ({ data: ctx.webhooks.view() }));
	app.post('/webhooks/delivery', async (request) => ({
		data: ctx.webhooks.configure(body(request)),
	}));
	app.post('/events', async (request) => {
		const event = body(request);
		if (isBlank(event.type) || typeof event.type !== 'string')
			throw invalid('type', "can't be blank");
		const { type, ...fields } = event;
		const rec = ctx.emit(type, fields);
		await ctx.webhooks.idle();
		return {
			data: { event: { type, ...fields }, notification: rec ? ctx.webhooks.recordView(rec) : null },
		};
	});
	app.get('/events', async () => ({ data: ctx.state.events }));
	app.get('/webhook', async () => ({
		data: {
			url: ctx.state.webhook.url,
			secret: ctx.state.webhook.secret,
			enabled: ctx.state.webhook.enabled,
		},
	}));

	// ---- what FacilitaPay does with `meta` (sandbox/metaMode.mjs) ----
	app.post('/meta', async (request) => {
		const mode = String(body(request).mode ?? '');
		if (!META_MODES.includes(mode))
			throw invalid('mode', `must be one of: ${META_MODES.join(', ')}`);
		ctx.metaMode = mode;
		return { data: { mode } };
	});
	app.get('/meta', async () => ({ data: { mode: ctx.metaMode } }));

	// ---- faults and the request log ----
	app.post('/faults', async (request) => ({ data: ctx.faults.add(body(request)) }));
	app.get('/faults', async () => ({ data: ctx.faults.list() }));
	app.delete('/faults', async () => {
		ctx.faults.clear();
		return { data: 'ok' };
	});
	app.get('/requests', async (request) => {
		const query = /** @type {any} */ (request.query);
		const all = ctx.state.requests.filter((entry) => !query.route || entry.route === query.route);
		/** @type {Record<string, number>} */
		const counts = {};
		for (const entry of all) {
			const key = entry.route ?? `${entry.method} ${entry.url.split('?')[0]}`;
			counts[key] = (counts[key] ?? 0) + 1;
		}
		return { data: all.map(({ id: _id, ...entry }) => entry), counts };
	});
	app.get('/requests/totals', async () => ({
		data: { ...ctx.state.requestTotals },
		at_ms: Date.now(),
	}));
	app.delete('/requests', async () => {
		ctx.state.requests.length = 0;
		return { data: 'ok' };
	});
}

function esc(text) {
	return String(text).replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function checkoutPage(checkout) {
	const payUrl = `/_sandbox/transactions/${checkout.id}/pay`;
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>FacilitaPay Sandbox checkout</title>
<style>body{font-family:sans-serif;max-width:32rem;margin:3rem auto}button{margin-right:1rem;padding:.5rem 1rem}</style></head>
<body><h1>Sandbox card checkout</h1>
<p>Checkout <code>${esc(checkout.id)}</code> &middot; status <strong id="status">${esc(checkout.status)}</strong></p>
<p>Amount: <strong>${esc(checkout.currency)} ${esc(checkout.value)}</strong></p>
<p>This page plays the customer. No real card is charged.</p>
<button id="ok">Pay (approved)</button><button id="ko">Pay (declined)</button>
<pre id="out"></pre>
<script>
async function pay(success){
  const response = await fetch(${JSON.stringify(payUrl)}, {method:'POST', headers:{'content-type':'application/json'}, body: JSON.stringify({success})});
  const answer = await response.json(); document.getElementById('out').textContent = JSON.stringify(answer, null, 2);
  if (response.ok && success) document.getElementById('status').textContent = 'paid';
}
document.getElementById('ok').onclick = () => pay(true);
document.getElementById('ko').onclick = () => pay(false);
</script></body></html>`;
}
