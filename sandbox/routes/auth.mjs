/** POST /api/v1/sign_in: `{"user":{"username","password"}}` → `{"jwt","name","username"}` (no `data`). */
export function registerAuthRoutes(api, ctx) {
	api.post('/sign_in', { config: { public: true } }, async (request, reply) => {
		const result = ctx.auth.signIn(request.body);
		if (!result.ok) {
			for (const [key, value] of Object.entries(result.headers ?? {})) reply.header(key, value);
			return reply.code(result.status).send(result.body);
		}
		return result.body;
	});
}
