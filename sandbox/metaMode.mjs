/**
 * What the sandbox does with `meta` on transaction and subscription creates. The public clients
 * show FacilitaPay storing a free `meta` object and returning it (`keep`, the default); the
 * material does not say every deployment does, so two variants can be played:
 * - `drop`: the create is accepted, `meta` is neither stored nor returned;
 * - `refuse`: a create carrying a non-empty `meta` is refused with 422 `{"errors":{"meta":[…]}}`.
 * Switched by `POST /_sandbox/meta {"mode": "keep" | "drop" | "refuse"}`; a reset returns to `keep`.
 */
import { invalid } from './errors.mjs';

export const META_MODES = ['keep', 'drop', 'refuse'];

/** The body as the create should see it under `mode` (`wrapper`: "transaction", "subscription" or none). */
export function applyMetaMode(mode, body, wrapper) {
	if (mode === 'keep' || !body || typeof body !== 'object') return body;
	const inner = wrapper ? body[wrapper] : body;
	if (!inner || typeof inner !== 'object' || inner.meta === undefined) return body;
	const meta = inner.meta;
	const filled = meta && typeof meta === 'object' && Object.keys(meta).length > 0;
	if (mode === 'refuse' && filled)
		throw invalid(wrapper ? `${wrapper}.meta` : 'meta', 'is not allowed');
	const { meta: _dropped, ...rest } = inner;
	return wrapper ? { ...body, [wrapper]: rest } : rest;
}
