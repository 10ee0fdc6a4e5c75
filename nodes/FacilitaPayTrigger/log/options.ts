/** The trigger's options as saved by any version of the node. */
export interface TriggerOptions {
	/** Version 2: read the objects an event names and attach them. */
	attachObjects?: boolean;
	disableOnDeactivation?: boolean;
	/** Versions 1 and 1.1 (now moot: a record starts the workflow once). */
	acceptUnsignedKycStatus?: boolean;
	dropDuplicates?: boolean;
	includeHeaders?: boolean;
	/** Versions 1 and 1.1: now attaches the objects (the log is the proof). */
	verifyWithApi?: boolean;
	/** Version 1's name of verifyWithApi. */
	fetchTransaction?: boolean;
}

/**
 * Whether the objects an event names are read and attached: version 2's Attach Current Objects
 * (off unless chosen); in versions 1 and 1.1, Verify With API (on unless turned off, under either
 * of its names), which read them then.
 */
export function attachObjectsOption(options: TriggerOptions, version: number): boolean {
	if (version >= 2) return options.attachObjects === true;
	if (typeof options.verifyWithApi === 'boolean') return options.verifyWithApi;
	if (typeof options.fetchTransaction === 'boolean') return options.fetchTransaction;
	return true;
}
