/**
 * Endpoints from the live docs and the public clients that the spec does not list: customers' bank
 * accounts, the balance of the partner's accounts, the status of a refund, and the PSE banks.
 */
export function registerBankAccountRoutes(api, ctx) {
	api.post('/subject/:id/bank_accounts', async (request) => ({
		data: ctx.bankAccounts.register(
			/** @type {any} */ (request.params).id,
			request.body?.bank_account,
		),
	}));

	api.get('/bank_accounts/:id/balance', async (request) => ({
		data: ctx.bankAccounts.balance(/** @type {any} */ (request.params).id),
	}));

	// Colombia's PSE banks (the public Python client); its answer may be played away.
	api.get('/pse/financial_institutions', async () => ({
		data: ctx.localPayIns.financialInstitutions(),
	}));

	api.get('/transactions/:id/refund_received_transaction/:refund_id', async (request) => {
		const params = /** @type {any} */ (request.params);
		return { data: ctx.refunds.status(params.id, params.refund_id) };
	});
}
