/** Marketplace collection (authorisation, bank account requests) and wire corrections. */
export function registerMarketplaceRoutes(api, ctx) {
	api.post('/subject/:id/account_request', async (request) => ({
		data: ctx.marketplace.accountRequest(
			/** @type {any} */ (request.params).id,
			request.body ?? {},
		),
	}));

	api.post('/bank/accounts/request', async (request) => ({
		data: ctx.marketplace.view(ctx.marketplace.requestBankAccount(request.body ?? {})),
	}));

	api.get('/bank/accounts/request/:id', async (request) => ({
		data: ctx.marketplace.view(ctx.marketplace.getRequest(/** @type {any} */ (request.params).id)),
	}));

	api.put('/wires/:id/update_bank_account', async (request) => ({
		data: ctx.transactions.wireView(
			ctx.transactions.updateWireBankAccount(/** @type {any} */ (request.params).id, request.body),
		),
	}));
}
