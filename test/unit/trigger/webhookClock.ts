import { defaultRetryOptions } from '../../../nodes/FacilitaPay/transport';
import { clearDuplicateMemory } from '../../../nodes/FacilitaPayTrigger/duplicates';
import { clearKeptReads, clearProcessLimiters } from '../../../nodes/FacilitaPayTrigger/reads';
import { clearRecordLookups } from '../../../nodes/FacilitaPayTrigger/records';
import { clearAnswerPaces } from '../../../nodes/FacilitaPayTrigger/secret';

/*
 * Imported by every webhook test file (webhook.*.test.ts), for its hooks: each test of the file
 * runs on a fake clock set at NOW, without the transport's waits between retries, with fresh
 * process memories (records lookups, duplicates, limiters, reads kept, answer times).
 */

export const NOW = new Date('2025-06-02T10:30:00.000Z');

beforeEach(() => {
	jest.useFakeTimers({
		now: NOW,
		doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'],
	});
	jest.spyOn(defaultRetryOptions, 'wait').mockImplementation(async () => {});
	clearRecordLookups();
	clearDuplicateMemory();
	clearProcessLimiters();
	clearKeptReads();
	clearAnswerPaces();
});
afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});
