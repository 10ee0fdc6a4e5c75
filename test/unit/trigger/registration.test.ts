import { isUnreachableFromInternet } from '../../../nodes/FacilitaPayTrigger/registration';

// The trigger warns when n8n gives it a URL FacilitaPay, on the internet, cannot reach. Which hosts
// are local is the credential's rule (isLocalHost), so both answer alike: a name that only starts
// like a private address is a public name, and private IPv6 addresses are local.
describe('isUnreachableFromInternet', () => {
	it.each([
		['http://localhost:5678/webhook/a/webhook', true],
		['http://n8n.localhost/webhook/a/webhook', true],
		['http://127.0.0.1:5678/webhook/a/webhook', true],
		['http://10.1.2.3/webhook/a/webhook', true],
		['http://172.16.0.9/webhook/a/webhook', true],
		['http://192.168.1.20/webhook/a/webhook', true],
		['http://[::1]:5678/webhook/a/webhook', true],
		['http://[fd12:3456::1]/webhook/a/webhook', true],
		['http://0.0.0.0:5678/webhook/a/webhook', true],
		['not a url', true],
		['https://n8n.example.com/webhook/a/webhook', false],
		['http://127.evil.example/webhook/a/webhook', false],
		['http://10.evil.example/webhook/a/webhook', false],
		['http://172.32.0.1/webhook/a/webhook', false],
	])('%s → %s', (url, unreachable) => {
		expect(isUnreachableFromInternet(url)).toBe(unreachable);
	});
});
