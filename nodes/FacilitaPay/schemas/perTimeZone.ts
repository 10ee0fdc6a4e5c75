import type { TimeZoneOption } from '../validation/dates';

/**
 * A schema that depends only on the workflow's time zone, built once per time zone and then reused
 * by every item and every run. Safe because such schemas read the clock when an item is checked
 * (`clock.now()` inside the check), never when they are built; building a zod schema per item cost
 * more CPU than checking the item with it.
 */
export function perTimeZone<T>(build: (options: TimeZoneOption) => T): (timeZone: string) => T {
	const built = new Map<string, T>();
	return (timeZone) => {
		let schema = built.get(timeZone);
		if (schema === undefined) {
			schema = build({ timeZone });
			built.set(timeZone, schema);
		}
		return schema;
	};
}
