import { defaultRetryOptions } from '../../../nodes/FacilitaPay/transport';

/**
 * For every test of the calling file: the transport's waits between retries end at once (no real
 * time passes) and their lengths (ms) are recorded in the array returned, emptied before each test.
 */
export function skipRetryWaits(): number[] {
	const waits: number[] = [];
	beforeEach(() => {
		waits.length = 0;
		jest.spyOn(defaultRetryOptions, 'wait').mockImplementation(async (ms: number) => {
			waits.push(ms);
		});
	});
	afterEach(() => jest.restoreAllMocks());
	return waits;
}
