import { ownershipFrom } from '../../../nodes/FacilitaPayTrigger/registration';

const OURS = 'https://n8n.example.com/webhook/3f1c/webhook';
const THEIRS = 'https://elsewhere.example.com/hook';

describe('who receives the notifications: the newest record, read as a time', () => {
	it("FacilitaPay's live form with microseconds is newer than the docs' form of the same second", () => {
		const records = [
			{ url: OURS, inserted_at: '2025-07-09T13:51:30Z' },
			{ url: THEIRS, inserted_at: '2025-07-09T13:51:30.989491' },
		];
		expect(ownershipFrom(records, [OURS])).toEqual({
			kind: 'foreign',
			url: THEIRS,
			at: '2025-07-09T13:51:30.989491',
		});
		expect(ownershipFrom([...records].reverse(), [OURS])).toMatchObject({ kind: 'foreign' });
	});

	it('the newest record is ours: ours', () => {
		const records = [
			{ url: THEIRS, inserted_at: '2025-07-09T13:51:29.100000' },
			{ url: OURS, inserted_at: '2025-07-09T13:51:30.000001' },
		];
		expect(ownershipFrom(records, [OURS])).toEqual({ kind: 'ours' });
	});

	it('times that cannot be read are compared as text', () => {
		const records = [
			{ url: OURS, inserted_at: 'b' },
			{ url: THEIRS, inserted_at: 'a' },
		];
		expect(ownershipFrom(records, [OURS])).toEqual({ kind: 'ours' });
	});
});
