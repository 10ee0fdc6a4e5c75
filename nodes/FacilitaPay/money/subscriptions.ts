import type { FindSentResult } from './types';
import { judgeStatus, type Read } from './reads';
import { safeDecode } from './records';

export async function findSubscriptionState(
	action: 'cancel' | 'threedsChallenge',
	encodedId: string,
	taken: Set<string>,
	read: Read,
): Promise<FindSentResult> {
	const id = safeDecode(encodedId);
	const what = `subscription ${id}`;
	const check = `Check it (Subscription > Get, and its invoices with Invoice > Get Many) before sending the ${
		action === 'cancel' ? 'cancellation' : '3-D Secure challenge'
	} again.`;
	return await judgeStatus(read, `/subscriptions/${encodedId}`, what, check, (status, record) => {
		const found = (): FindSentResult => {
			taken.add(id);
			return { found: record };
		};
		if (action === 'cancel') {
			if (status === 'canceled') return found();
			if (status === 'pending' || status === 'active' || status === 'completed')
				return { notFound: true };
			return undefined;
		}
		if (status === 'active' || status === 'completed') return found();
		if (status === 'pending') {
			return {
				cannotTell: `${what} is still pending: whether the 3-D Secure challenge was processed (and the card charged) does not show in it. ${check}`,
			};
		}
		return undefined;
	});
}
