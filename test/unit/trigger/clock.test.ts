import { clock } from '../../../nodes/FacilitaPay/clock';
import { clearProductionRegistrations } from '../../../nodes/FacilitaPayTrigger/ownership';
import { SECRET, hmacOf, runLifecycle } from './triggerContext';

// The trigger reads the time of its rules (when a secret was registered, how long the previous one
// is still accepted) from the one clock both nodes share, so a test or a host can fix it there.
const FIXED = new Date('2031-03-04T05:06:07.000Z');

beforeEach(() => clearProductionRegistrations());
afterEach(() => jest.restoreAllMocks());

it('publishing records the registration time from the shared clock', async () => {
	jest.spyOn(clock, 'now').mockReturnValue(FIXED);
	const { staticData } = await runLifecycle('create', {
		replies: [{ data: [] }, { data: { secret: SECRET } }],
	});
	expect(staticData.secretHmac).toBe(hmacOf(SECRET));
	expect(staticData.registeredAt).toBe(FIXED.toISOString());
});

it('unpublishing keeps the old secret for redeliveries counted from the shared clock', async () => {
	jest.spyOn(clock, 'now').mockReturnValue(FIXED);
	const { staticData: registered } = await runLifecycle('create', {
		replies: [{ data: [] }, { data: { secret: SECRET } }],
	});
	const { staticData } = await runLifecycle('delete', { staticData: { ...registered } });
	expect(staticData.previousSecretHmac).toBe(hmacOf(SECRET));
	expect(staticData.previousSecretUntil).toBe('2031-03-05T05:06:07.000Z');
});
