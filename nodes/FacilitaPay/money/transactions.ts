import type { FindSentResult } from './types';
import { judgeStatus, type Read } from './reads';
import { safeDecode } from './records';

export async function findTransactionState(
	action: 'cancel' | 'refund',
	encodedId: string,
	taken: Set<string>,
	read: Read,
): Promise<FindSentResult> {
	const id = safeDecode(encodedId);
	const what = `transaction ${id}`;
	const check = `Check it (Transaction > Get, or the FacilitaPay dashboard) before sending the ${
		action === 'cancel' ? 'cancellation' : 'refund'
	} again.`;
	return await judgeStatus(read, `/transactions/${encodedId}`, what, check, (status, record) => {
		if (status === 'canceled') {
			taken.add(id);
			return { found: record };
		}
		if (status === 'pending') return { notFound: true };
		const received = status === 'identified' || status === 'exchanged' || status === 'wired';
		if (received && action === 'cancel') return { notFound: true };
		if (received) {
			return {
				cannotTell: `${what} is ${status}: a refund is a record of its own at FacilitaPay, with its own status (it may still be pending), and the transaction does not show whether one was made. ${check}`,
			};
		}
		return undefined;
	});
}
