/** Transaction endpoints: create (dynamic PIX / boleto / payout), checkout, read, refunds, boleto PDF. */
import { renderPdf } from '../pdf.mjs';
import { notFound } from '../errors.mjs';
import { applyMetaMode } from '../metaMode.mjs';

export function registerTransactionRoutes(api, ctx) {
	api.post('/transactions', async (request) => ({
		data: ctx.transactions.view(
			ctx.transactions.create(applyMetaMode(ctx.metaMode, request.body, 'transaction')),
		),
	}));

	api.post('/transactions/checkout', async (request) => ({
		data: ctx.transactions.createCheckout(request.body),
	}));

	api.get('/transactions/:id', async (request) => ({
		data: ctx.transactions.view(ctx.transactions.get(/** @type {any} */ (request.params).id)),
	}));

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
