import type { IDataObject } from 'n8n-workflow';

/** Forgeries (wrong secrets, proven-false events) tolerated within the window before the lock. */
export const GUESS_LIMIT = 20;
export const GUESS_WINDOW_MS = 10 * 60 * 1000;

/**
 * Wrong secrets seen by this n8n process, per trigger. The static data alone is not enough: n8n
 * reads it from the database when a request starts and writes it back when it ends, so requests
 * sent in parallel would all see the same count. This map is shared by every request the process
 * serves; the static data carries the count over a restart.
 */
const memory = new Map<string, number[]>();

/** For tests: forgets what this process remembered. */
export function clearGuessMemory(): void {
	memory.clear();
}

function recent(times: unknown, now: number): number[] {
	if (!Array.isArray(times)) return [];
	return times.filter(
		(t): t is number => typeof t === 'number' && Number.isFinite(t) && t > now - GUESS_WINDOW_MS,
	);
}

/**
 * The wrong-secret times within the window (the latest GUESS_LIMIT): the longer of what this process
 * remembers (which holds everything it saw, parallel requests included) and what the static data
 * carries (what was saved before a restart, or by another process).
 */
function merged(staticData: IDataObject, key: string, now: number): number[] {
	const inMemory = recent(memory.get(key), now);
	const saved = recent(staticData.wrongSecretTimes, now);
	return (inMemory.length >= saved.length ? inMemory : saved).slice(-GUESS_LIMIT);
}

function store(staticData: IDataObject, key: string, times: number[]): void {
	memory.set(key, times);
	if (times.length === 0) delete staticData.wrongSecretTimes;
	else staticData.wrongSecretTimes = times;
}

/**
 * Until when every notification is refused (decision.ts): GUESS_LIMIT forgeries within
 * GUESS_WINDOW_MS lock until the oldest of those leaves the window. Undefined when not locked.
 */
export function lockedUntil(staticData: IDataObject, key: string, now: number): number | undefined {
	const times = merged(staticData, key, now);
	if (times.length < GUESS_LIMIT) return undefined;
	return times[times.length - GUESS_LIMIT] + GUESS_WINDOW_MS;
}

/**
 * Until when the lock would last if one more forgery were counted now, when that one would start
 * it; undefined when it would not (already locked, or still below the limit).
 */
export function lockIfCounted(
	staticData: IDataObject,
	key: string,
	now: number,
): number | undefined {
	if (lockedUntil(staticData, key, now) !== undefined) return undefined;
	const times = [...merged(staticData, key, now), now].slice(-GUESS_LIMIT);
	if (times.length < GUESS_LIMIT) return undefined;
	return times[0] + GUESS_WINDOW_MS;
}

/**
 * Counts one wrong secret. Answers whether this one started a lock (to log it once, not on every
 * refused request).
 */
export function recordWrongSecret(
	staticData: IDataObject,
	key: string,
	now: number,
): { lockStarted: boolean; lockedUntil?: number } {
	const wasLocked = lockedUntil(staticData, key, now) !== undefined;
	const times = merged(staticData, key, now);
	times.push(now);
	store(staticData, key, times.slice(-GUESS_LIMIT));
	const until = lockedUntil(staticData, key, now);
	return { lockStarted: !wasLocked && until !== undefined, lockedUntil: until };
}
