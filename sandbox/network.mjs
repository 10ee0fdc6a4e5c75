/**
 * Where the sandbox listens and who may call its control endpoints.
 *
 * The control endpoints (/_sandbox: move the clock, pay, approve, inject faults…) have no
 * authentication, so the sandbox listens on loopback unless told otherwise, reads only its own
 * variable FACILITAPAY_SANDBOX_HOST (the generic HOST is often set by shells and platforms, e.g. to
 * 0.0.0.0, and must not open the sandbox to the network), and answers control calls from loopback
 * clients only, even when it listens on another interface.
 */
import net from 'node:net';

export const SANDBOX_HOST_VARIABLE = 'FACILITAPAY_SANDBOX_HOST';
export const DEFAULT_HOST = '127.0.0.1';

/**
 * The address to listen on: `--host`, else FACILITAPAY_SANDBOX_HOST, else 127.0.0.1.
 * @param {string | undefined} hostArgument
 * @param {Record<string, string | undefined>} env
 */
export function resolveListenHost(hostArgument, env) {
	const fromArgument = String(hostArgument ?? '').trim();
	if (fromArgument) return fromArgument;
	const fromVariable = String(env[SANDBOX_HOST_VARIABLE] ?? '').trim();
	return fromVariable || DEFAULT_HOST;
}

/**
 * Whether a client address is on this machine: 127.0.0.0/8, ::1, or 127.x.x.x written as an
 * IPv4-mapped IPv6 address (::ffff:127.0.0.1, how a dual-stack socket shows an IPv4 client).
 * @param {string | undefined} address
 */
export function isLoopbackAddress(address) {
	const text = String(address ?? '')
		.trim()
		.toLowerCase();
	const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
	const candidate = mapped ? mapped[1] : text;
	if (net.isIPv4(candidate)) return candidate.split('.')[0] === '127';
	if (net.isIPv6(candidate)) {
		const list = new net.BlockList();
		list.addAddress('::1', 'ipv6');
		return list.check(candidate, 'ipv6');
	}
	return false;
}

/** The answer to a control call from another machine. */
export const REMOTE_CONTROL_REFUSED = {
	error:
		'The sandbox control endpoints answer only clients on this machine (loopback); call them from 127.0.0.1 or ::1.',
};

/**
 * Fastify `onRequest` hook of the sandbox: a call under `controlPrefix` from a client that is not
 * on loopback is answered 403 and goes no further. `isLocal` is the address check (tests replace
 * it, as they cannot call from another machine).
 * @param {string} controlPrefix
 * @param {(address: string | undefined) => boolean} [isLocal]
 */
export function refuseRemoteControl(controlPrefix, isLocal = isLoopbackAddress) {
	/** @param {{ url: string, socket: { remoteAddress?: string } }} request @param {any} reply */
	return async (request, reply) => {
		if (!request.url.startsWith(controlPrefix)) return undefined;
		if (isLocal(request.socket.remoteAddress)) return undefined;
		return reply.code(403).send(REMOTE_CONTROL_REFUSED);
	};
}
