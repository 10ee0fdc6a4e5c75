import type { ApiRequest } from '../../../../nodes/FacilitaPay/transport';
import { lookup, service, SUBJECT } from './fixtures';

describe('Requests FacilitaPay offers no way to look up', () => {
	it.each<[string, ApiRequest, string]>([
		[
			'Marketplace Account > Request Authorization',
			{ method: 'POST', path: `/subject/${SUBJECT}/account_request`, retry: 'sendOnce' },
			'subject_account_authorization',
		],
		[
			'Marketplace Account > Request Bank Account',
			{
				method: 'POST',
				path: '/bank/accounts/request',
				body: { subject_id: SUBJECT },
				retry: 'sendOnce',
			},
			'account_request_status',
		],
		[
			'Wire > Update Bank Account',
			{ method: 'PUT', path: '/wires/wire-1/update_bank_account', body: {}, retry: 'sendOnce' },
			'wire_created',
		],
		[
			'Transaction > Create Checkout',
			{
				method: 'POST',
				path: '/transactions/checkout',
				body: { subject_id: SUBJECT, value: '1.00' },
				retry: 'sendOnce',
			},
			'card checkout',
		],
		[
			'an unknown money request',
			{ method: 'POST', path: '/payments', retry: 'sendOnce' },
			'POST /payments',
		],
	])('%s → cannotTell, nothing read', async (_name, request, words) => {
		const { read, sent } = service({});
		expect(await lookup(request, read)).toEqual({ cannotTell: expect.stringContaining(words) });
		expect(sent).toHaveLength(0);
	});
});
