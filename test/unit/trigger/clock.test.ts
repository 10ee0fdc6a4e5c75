import { clock } from '../../../nodes/FacilitaPay/clock';
import { resetProcessState } from '../../../nodes/FacilitaPayTrigger/log';
import { SECRET, hmacOf, runLifecycle } from './triggerContext';

// The trigger reads the time of its rules (when a secret was registered, when a notification was
// started, in the reader's tests) from the one clock both nodes share, so a test or a host can fix it there.
const FIXED = new Date('2031-03-04T05:06:07.000Z');

beforeEach(() => resetProcessState());
afterEach(() => jest.restoreAllMocks());

it('publishing records the registration time from the shared clock', async () => {
	jest.spyOn(clock, 'now').mockReturnValue(FIXED);
	const { staticData } = await runLifecycle('create', {
		replies: [{ data: [] }, { data: { secret: SECRET } }],
	});
	expect(staticData.secretHmac).toBe(hmacOf(SECRET));
	expect(staticData.registeredAt).toBe(FIXED.toISOString());
});
