// n8n's processed-data store (the one behind Remove Duplicates "across executions" and
// `helpers.checkProcessedAndRecord`), in memory. n8n-core's own DataDeduplicationService and helper
// functions call it; only the storage is ours. It keeps what n8n's database row keeps: per workflow
// and context (`n:<node id>` for scope "node", '' for scope "workflow"), the mode it was written
// with and, in "entries" mode, the MD5 (base64) of each key, oldest first, cut to `maxEntries`.
import { createHash } from 'node:crypto';

const LATEST_MODES = new Set(['latestIncrementalKey', 'latestDate']);

const hash = (value) => createHash('md5').update(String(value)).digest('base64');

function contextOf(scope, contextData) {
	if (scope !== 'node') return '';
	if (!contextData.node) {
		throw new Error("No node information has been provided and so cannot use scope 'node'");
	}
	return `n:${contextData.node.id}`;
}

/** True when `a` comes after `b` in a "latest" mode (a number or a date). */
function isLater(mode, a, b) {
	if (mode === 'latestIncrementalKey') {
		if (Number.isNaN(Number(a)) || Number.isNaN(Number(b))) {
			throw new Error('Invalid value. Only numbers are supported in mode "latestIncrementalKey"');
		}
		return Number(a) > Number(b);
	}
	const [da, db] = [new Date(a), new Date(b)];
	if (Number.isNaN(da.getTime()) || Number.isNaN(db.getTime())) {
		throw new Error('Invalid value. Only valid dates are supported in mode "latestDate"');
	}
	return da > db;
}

/** An IDataDeduplicator over a Map; `rows` is readable by tests, `calls` counts store calls. */
export class InMemoryProcessedStore {
	constructor() {
		/** @type {Map<string, { mode: string, data: any }>} */
		this.rows = new Map();
		this.calls = 0;
	}

	row(scope, contextData, options, create) {
		const key = `${contextData.workflow.id}|${contextOf(scope, contextData)}`;
		let row = this.rows.get(key);
		if (row && row.mode !== options.mode) {
			throw new Error(
				'Deduplication data was originally saved with an incompatible setting of the ‘Keep Items Where’ parameter. Try ’Clean Database’ operation to reset.',
			);
		}
		if (!row && create) {
			row = { mode: options.mode, data: LATEST_MODES.has(options.mode) ? undefined : [] };
			this.rows.set(key, row);
		}
		return row;
	}

	async checkProcessedAndRecord(items, scope, contextData, options) {
		this.calls++;
		const row = this.row(scope, contextData, options, true);
		const result = { new: [], processed: [] };
		if (LATEST_MODES.has(options.mode)) {
			for (const item of items) {
				if (row.data === undefined || isLater(options.mode, item, row.data)) {
					result.new.push(item);
					if (row.data === undefined || isLater(options.mode, item, row.data)) row.data = item;
				} else result.processed.push(item);
			}
			return result;
		}
		const seen = new Set(row.data);
		for (const item of items) {
			const key = hash(item);
			if (seen.has(key)) result.processed.push(item);
			else {
				result.new.push(item);
				row.data.push(key);
				seen.add(key);
			}
		}
		if (options.maxEntries && row.data.length > options.maxEntries) {
			row.data.splice(0, row.data.length - options.maxEntries);
		}
		return result;
	}

	async removeProcessed(items, scope, contextData, options) {
		this.calls++;
		if (LATEST_MODES.has(options.mode)) {
			throw new Error('Removing processed data is not possible in mode "latest"');
		}
		const row = this.row(scope, contextData, options, false);
		if (!row) return;
		for (const item of items) {
			const at = row.data.indexOf(hash(item));
			if (at >= 0) row.data.splice(at, 1);
		}
	}

	async clearAllProcessedItems(scope, contextData) {
		this.calls++;
		this.rows.delete(`${contextData.workflow.id}|${contextOf(scope, contextData)}`);
	}

	async getProcessedDataCount(scope, contextData, options) {
		this.calls++;
		const row = this.row(scope, contextData, options, false);
		return options.mode === 'entries' ? (row?.data.length ?? 0) : 0;
	}

	/** How many keys are recorded, all workflows and nodes together ("entries" mode). */
	size() {
		return [...this.rows.values()].reduce(
			(sum, row) => sum + (Array.isArray(row.data) ? row.data.length : 0),
			0,
		);
	}

	/** Whether `key` is recorded in any row (compared as n8n stores it: by its MD5). */
	has(key) {
		const hashed = hash(key);
		return [...this.rows.values()].some(
			(row) => Array.isArray(row.data) && row.data.includes(hashed),
		);
	}
}
