// `meta` on transactions and subscriptions: kept and returned (the public clients), or the two
// variants the material leaves open, switched by POST /_sandbox/meta: dropped, refused.
import { useSandbox, payout } from './helpers.mjs';

const t = useSandbox({ withPerson: true });

const withMeta = (meta) => {
	const body = payout(t.subject.id);
	return { ...body, transaction: { ...body.transaction, meta } };
};
const listed = async () =>
	(await t.api('GET', `/subject/${t.subject.id}/transactions`)).json.data.map((tx) => tx.meta);

describe('meta on a transaction', () => {
	test('keep (default): the create answer, the read and the subject’s list return it as sent', async () => {
		const created = (await t.api('POST', '/transactions', withMeta({ order: 'A-1', n: 2 }))).json
			.data;
		expect(created.meta).toEqual({ order: 'A-1', n: 2 });
		expect((await t.api('GET', `/transactions/${created.id}`)).json.data.meta).toEqual({
			order: 'A-1',
			n: 2,
		});
		expect(await listed()).toEqual([{ order: 'A-1', n: 2 }]);
	});

	test('drop: the create is accepted and meta is neither stored nor returned', async () => {
		expect((await t.control('POST', '/meta', { mode: 'drop' })).json.data).toEqual({
			mode: 'drop',
		});
		const r = await t.api('POST', '/transactions', withMeta({ order: 'A-2' }));
		expect(r.status).toBe(200);
		expect(r.json.data.meta).toEqual({});
		expect(await listed()).toEqual([{}]);
	});

	test('refuse: a create carrying meta is refused with 422 and nothing is created; without meta it passes', async () => {
		await t.control('POST', '/meta', { mode: 'refuse' });
		const r = await t.api('POST', '/transactions', withMeta({ order: 'A-3' }));
		expect(r.status).toBe(422);
		expect(r.json).toEqual({ errors: { 'transaction.meta': ['is not allowed'] } });
		expect(await listed()).toEqual([]);
		expect((await t.api('POST', '/transactions', payout(t.subject.id))).status).toBe(200);
	});

	test('an unknown mode is refused; a reset returns to keep', async () => {
		expect((await t.control('POST', '/meta', { mode: 'lose' })).status).toBe(422);
		await t.control('POST', '/meta', { mode: 'drop' });
		await t.control('POST', '/reset', {});
		expect((await t.control('GET', '/meta')).json.data).toEqual({ mode: 'keep' });
	});
});
