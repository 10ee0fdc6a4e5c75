/** Transaction endpoints: create (dynamic PIX / boleto / payout), checkout, read, refunds, boleto PDF. */
import { renderPdf } from '../pdf.mjs';
import { notFound } from '../errors.mjs';
import { applyMetaMode } from '../metaMode.mjs';

export function registerTransactionRoutes(api, ctx) {
	/** When each transaction was created (wall clock), for the read-after-write lag played. */
	const createdAtMs = new Map();
	api.post('/transactions', async (request) => {
		const created = ctx.transactions.create(
			applyMetaMode(ctx.metaMode, request.body, 'transaction'),
		);
		createdAtMs.set(created.id, Date.now());
		return { data: ctx.transactions.view(created) };
	});
	const lagging = (/** @type {string} */ id) =>
		Date.now() - (createdAtMs.get(id) ?? 0) <
		(ctx.transactions.play().read_lag_seconds ?? 0) * 1000;

	api.post('/transactions/checkout', async (request) => ({
		data: ctx.transactions.createCheckout(request.body),
	}));

	api.get('/transactions/:id', async (request) => {
		const { id } = /** @type {any} */ (request.params);
		if (lagging(id)) throw notFound();
		return { data: ctx.transactions.view(ctx.transactions.get(id)) };
	});

	// Answers the void record (live docs, "Cancel answer"), not the transaction.
	api.get('/transactions/:id/refund', async (request) => ({
		data: ctx.transactions.cancel(/** @type {any} */ (request.params).id),
	}));

	api.get('/transactions/:id/refund_received_transaction', async (request) => ({
		data: ctx.transactions.view(ctx.transactions.refund(/** @type {any} */ (request.params).id)),
	}));

	api.get('/transactions/:id/boleto_pdf', async (request, reply) => {
		const transaction = ctx.transactions.get(/** @type {any} */ (request.params).id);
		if (!transaction.bar_code) throw notFound();
		const pdf = renderPdf([
			'FacilitaPay Sandbox - Boleto (not payable: sandbox document)',
			`Transaction: ${transaction.id}`,
			`Payer: ${transaction.subject?.social_name ?? ctx.state.subjects.get(transaction.subject_id)?.social_name ?? ''}`,
			`Value: BRL ${transaction.value}`,
			`Due date: ${transaction.from_boleto.expire_at}`,
			`Digital line: ${transaction.digital_line}`,
			`Bar code: ${transaction.bar_code}`,
		]);
		return reply
			.type('application/pdf')
			.header('content-disposition', `inline; filename="boleto-${transaction.id}.pdf"`)
			.send(pdf);
	});
}
