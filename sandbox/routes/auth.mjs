/** POST /api/v1/sign_in: `{"user":{"username","password"}}` → `{"jwt","name","username"}` (no `data`). */
export function registerAuthRoutes(api, ctx) {
	api.post('/sign_in', { config: { public: true } }, async (request, reply) => {
		const r = ctx.auth.signIn(request.body);
		if (!r.ok) {
			for (const [k, v] of Object.entries(r.headers ?? {})) reply.header(k, v);
			return reply.code(r.status).send(r.body);
		}
		return r.body;
	});
}
