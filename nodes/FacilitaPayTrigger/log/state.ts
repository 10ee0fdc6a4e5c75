import type { IDataObject } from 'n8n-workflow';

/*
 * The trigger's process memory, one object with one reset: the readers running in this process
 * (one per published trigger, on the instance that runs triggers), the deliveries a test
 * listening ("Listen for test event") handed to its execution, and the production registrations
 * this process made (per account and per service: workflow id → URL; registration/ownership.ts).
 */

/** A running reader, as a delivery sees it. */
export interface Prompted {
	prompt(): void;
	/**
	 * A KYC status payload named this subject (checked against FacilitaPay when the log lists none).
	 * Whether the reader took it: false when its subjects to check are full.
	 */
	promptKyc?(subjectId: string): boolean;
	stop(): void;
}

/** A delivery to a test URL, waiting for the test execution that n8n starts from it. */
export interface TestDelivery {
	url: string;
	notification: IDataObject;
	at: number;
	/** Wakes a test execution already waiting for its delivery. */
	arrived?: () => void;
}

export const processState = {
	readers: new Map<string, Prompted>(),
	tests: new Map<string, TestDelivery>(),
	production: new Map<string, Map<string, string>>(),
	productionByService: new Map<string, Map<string, string>>(),
};

/** Where a trigger's reader and test delivery are found: its workflow and node. */
export function triggerKey(workflowId: unknown, nodeId: unknown): string {
	return `${String(workflowId ?? '')}:${String(nodeId ?? '')}`;
}

/** Stops every reader and forgets every delivery (tests; never called by n8n). */
export function resetProcessState(): void {
	for (const reader of processState.readers.values()) reader.stop();
	processState.readers.clear();
	processState.tests.clear();
	processState.production.clear();
	processState.productionByService.clear();
}
