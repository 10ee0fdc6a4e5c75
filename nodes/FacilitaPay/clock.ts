/**
 * The one place both nodes read the time of a rule from: the action node's operations and schemas
 * (a PIX expiry at least a minute ahead, a boleto due today or later, a card not expired, a birth
 * date in the past…) and the trigger's (when a secret was registered, how long the previous one is
 * still accepted, locks after wrong secrets, the memory of delivered events).
 * A test fixes it with `jest.spyOn(clock, 'now').mockReturnValue(new Date('2030-01-01T12:00:00Z'))`;
 * callers read `clock.now()` at the moment of the rule, never a copy of the function.
 *
 * The transport's waits and deadlines take their own `now` (a number of milliseconds) as an
 * argument, so fixing this clock leaves retries and rate limits running on real time.
 */
export const clock = {
	now: (): Date => new Date(),
};
