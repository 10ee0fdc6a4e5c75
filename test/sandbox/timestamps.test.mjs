// How the sandbox writes its records' timestamps: the docs' form (`…Z`) by default, or on demand the
// live form quoted by FacilitaPay's public clients (microseconds, no zone), which the public
// material leaves open between the two.
import { useSandbox, dynamicPix } from './helpers.mjs';

const t = useSandbox({ withPerson: true });

const LIVE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

describe('record timestamps', () => {
	test('are written as the public docs show them by default (2025-03-10T12:00:00Z)', async () => {
		const created = await t.api('POST', '/transactions', dynamicPix(t.subject.id));
		expect(created.json.data.inserted_at).toBe('2025-03-10T12:00:00Z');
		expect((await t.control('GET', '/clock')).json.data.timestamps).toBe('docs');
	});

	test('are written with microseconds and no zone once the live form is played', async () => {
		const played = await t.control('POST', '/clock', { timestamps: 'live' });
		expect(played.json.data).toMatchObject({
			now: '2025-03-10T12:00:00.000000',
			timestamps: 'live',
		});
		await t.advance(1.5);
		const created = await t.api('POST', '/transactions', dynamicPix(t.subject.id));
		expect(created.json.data.inserted_at).toBe('2025-03-10T12:00:01.500000');
		expect(created.json.data.inserted_at).toMatch(LIVE);
		const listed = await t.api('GET', `/subject/${t.subject.id}/transactions`);
		expect(listed.json.data.map((transaction) => transaction.inserted_at)).toEqual([
			'2025-03-10T12:00:01.500000',
		]);
	});

	test('refuses an unknown form and goes back to the docs form on reset', async () => {
		const refused = await t.control('POST', '/clock', { timestamps: 'epoch' });
		expect(refused.status).toBe(422);
		expect(refused.json.errors).toEqual({ timestamps: ['must be one of: docs, live'] });
		await t.control('POST', '/clock', { timestamps: 'live' });
		await t.control('POST', '/reset');
		expect((await t.control('GET', '/clock')).json.data.timestamps).toBe('docs');
	});
});
