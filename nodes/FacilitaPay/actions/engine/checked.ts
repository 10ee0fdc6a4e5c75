/**
 * How far the checking of a run's items has come, for the pool that sends them. Items are checked
 * in input order; the pool waits here before it sends an item, so that no item leaves before it
 * was checked (and, for a money-moving item, before every item was).
 */
export class CheckedSoFar {
	/** Items 0..count-1 are checked. */
	private count = 0;
	private finished = false;
	private readonly waiting: Array<{ index: number; go: () => void }> = [];

	/** Item `index` is checked (valid or not): the items before it were too. */
	passed(index: number): void {
		this.count = Math.max(this.count, index + 1);
		this.wake();
	}

	/** Every item is checked (or checking ended): nothing waits any longer. */
	finish(): void {
		this.finished = true;
		this.wake();
	}

	/** Resolves once item `index` is checked. */
	async reached(index: number): Promise<void> {
		if (this.finished || index < this.count) return;
		await new Promise<void>((go) => this.waiting.push({ index, go }));
	}

	private wake(): void {
		for (let k = this.waiting.length - 1; k >= 0; k--) {
			const waiter = this.waiting[k];
			if (!this.finished && waiter.index >= this.count) continue;
			this.waiting.splice(k, 1);
			waiter.go();
		}
	}
}
