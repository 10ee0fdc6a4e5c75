// The icons have one source (icons/), placed by the build in dist/icons/; the nodes and the
// credentials point there. A real n8n 2.x must list every node and credential with an icon URL it
// actually serves as an SVG.
import { setupOwner } from '../../scripts/n8n-runtime.mjs';
import { describeE2e, requirePieces, sharedState } from './lib/n8n-e2e.mjs';

describeE2e('Icons in a real n8n 2.x', () => {
	test('the action node, the trigger and the credentials show the FacilitaPay icon, light and dark', async () => {
		const state = sharedState();
		requirePieces(state, ['node']);
		const base = /** @type {string} */ (state.n8nUrl).replace(/\/+$/, '');
		const { client } = await setupOwner(base);
		const nodes = (await client.call('GET', '/types/nodes.json')).json;
		const credentials = (await client.call('GET', '/types/credentials.json')).json;
		expect(Array.isArray(nodes)).toBe(true);
		const ours = [
			...nodes.filter((n) => n.name.startsWith('n8n-nodes-facilitapay.')),
			...credentials.filter((c) => c.name === 'facilitaPayApi'),
		];
		expect(ours.map((o) => o.name).sort()).toEqual(
			expect.arrayContaining([
				'facilitaPayApi',
				'n8n-nodes-facilitapay.facilitaPay',
				'n8n-nodes-facilitapay.facilitaPayTrigger',
			]),
		);
		for (const described of ours) {
			expect(described.iconUrl).toEqual({ light: expect.any(String), dark: expect.any(String) });
			for (const url of [described.iconUrl.light, described.iconUrl.dark]) {
				const response = await fetch(`${base}/${url}`, { headers: { cookie: client.cookie } });
				expect({ url, status: response.status }).toEqual({ url, status: 200 });
				expect(await response.text()).toMatch(/^<svg[\s>]/);
			}
		}
	});
});
