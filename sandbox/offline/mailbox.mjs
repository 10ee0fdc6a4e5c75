/**
 * A local SMTP catcher on loopback: the mail server of n8n's `smtp` credential (host 127.0.0.1, its
 * port, no TLS, no login) in the offline tests. It accepts every message and keeps it: envelope,
 * subject, the HTML and text bodies (quoted-printable and base64 decoded), and the links in it
 * (for a send-and-wait message, n8n's approve / decline links). Plain `node:net`, no dependency;
 * enough SMTP for nodemailer (EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT). Dev tool of this
 * repository, never shipped.
 *
 *   const mailbox = await startMailbox();   // mailbox.port
 *   const mail = await mailbox.waitForMessage((m) => m.subject.includes('Approve'));
 *   mail.links  // [{label: 'Decline', url: 'http://…'}, {label: 'Approve', url: 'http://…'}]
 *   await mailbox.close();
 */
import net from 'node:net';

/**
 * @typedef {{
 *   from: string, to: string[], subject: string, headers: Record<string, string>,
 *   html: string, text: string, links: {label: string, url: string}[], raw: string, at: number
 * }} Mail
 */

/** Starts the catcher on 127.0.0.1 (`port` 0: any free port). @param {{port?: number}} [options] */
export async function startMailbox({ port = 0 } = {}) {
	/** @type {Mail[]} */
	const messages = [];
	/** @type {Set<net.Socket>} */
	const sockets = new Set();

	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => sockets.delete(socket));
		socket.setEncoding('utf8');
		let buffer = '';
		let inData = false;
		let from = '';
		/** @type {string[]} */
		let to = [];
		const reply = (/** @type {string} */ line) => socket.write(`${line}\r\n`);
		reply('220 mailbox.local ESMTP offline catcher');
		socket.on('data', (chunk) => {
			buffer += chunk;
			for (;;) {
				if (inData) {
					const end = buffer.indexOf('\r\n.\r\n');
					const startEnd = buffer.startsWith('.\r\n') ? 0 : -1;
					if (end === -1 && startEnd === -1) return;
					const cut = startEnd === 0 ? 0 : end;
					const data = buffer.slice(0, cut);
					buffer = buffer.slice(cut + (startEnd === 0 ? 3 : 5));
					inData = false;
					messages.push(parseMail(data.replace(/^\.\./gm, '.'), from, to));
					from = '';
					to = [];
					reply('250 2.0.0 Ok: queued');
					continue;
				}
				const newline = buffer.indexOf('\r\n');
				if (newline === -1) return;
				const line = buffer.slice(0, newline);
				buffer = buffer.slice(newline + 2);
				const verb = line.slice(0, 4).toUpperCase();
				if (verb === 'EHLO') {
					socket.write(
						'250-mailbox.local\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 52428800\r\n',
					);
				} else if (verb === 'HELO') reply('250 mailbox.local');
				else if (verb === 'MAIL') {
					from = /<([^>]*)>/.exec(line)?.[1] ?? '';
					reply('250 2.1.0 Ok');
				} else if (verb === 'RCPT') {
					to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
					reply('250 2.1.5 Ok');
				} else if (verb === 'DATA') {
					inData = true;
					reply('354 End data with <CR><LF>.<CR><LF>');
				} else if (verb === 'RSET') {
					from = '';
					to = [];
					reply('250 2.0.0 Ok');
				} else if (verb === 'NOOP') reply('250 2.0.0 Ok');
				else if (verb === 'QUIT') {
					reply('221 2.0.0 Bye');
					socket.end();
					return;
				} else reply('502 5.5.2 Command not recognized');
			}
		});
	});

	await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
	const address = /** @type {net.AddressInfo} */ (server.address());

	return {
		host: '127.0.0.1',
		port: address.port,
		/** Every message received so far, in order. */
		messages: () => [...messages],
		/**
		 * The first message (received from now on or already there) for which `match` holds;
		 * polls until `timeoutMs`.
		 * @param {(mail: Mail) => boolean} match @param {{timeoutMs?: number}} [options]
		 */
		async waitForMessage(match, { timeoutMs = 120_000 } = {}) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const found = messages.find(match);
				if (found) return found;
				if (Date.now() > deadline)
					throw new Error(
						`No mail matched within ${timeoutMs} ms (${messages.length} received: ${messages.map((m) => m.subject).join(' | ')})`,
					);
				await new Promise((resolve) => setTimeout(resolve, 200));
			}
		},
		close: () =>
			new Promise((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve(undefined));
			}),
	};
}

/**
 * Parses an RFC 5322 message (single part or multipart) into what a reader sees.
 * @param {string} raw @param {string} from @param {string[]} to @returns {Mail}
 */
export function parseMail(raw, from, to) {
	const { headers, body } = splitHeaders(raw);
	/** @type {{html: string, text: string}} */
	const bodies = { html: '', text: '' };
	collectParts(headers, body, bodies);
	const subject = decodeWords(headers.subject ?? '');
	return {
		from,
		to,
		subject,
		headers,
		html: bodies.html,
		text: bodies.text || htmlToText(bodies.html),
		links: linksOf(bodies.html),
		raw,
		at: Date.now(),
	};
}

/** @param {string} raw */
function splitHeaders(raw) {
	const cut = raw.indexOf('\r\n\r\n');
	const head = cut === -1 ? raw : raw.slice(0, cut);
	const body = cut === -1 ? '' : raw.slice(cut + 4);
	/** @type {Record<string, string>} */
	const headers = {};
	for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
		const colon = line.indexOf(':');
		if (colon > 0)
			headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
	}
	return { headers, body };
}

/**
 * @param {Record<string, string>} headers @param {string} body
 * @param {{html: string, text: string}} bodies
 */
function collectParts(headers, body, bodies) {
	const type = (headers['content-type'] ?? 'text/plain').toLowerCase();
	const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
	if (type.startsWith('multipart/') && boundary) {
		for (const part of body.split(`--${boundary}`).slice(1)) {
			if (part.startsWith('--')) break;
			const inner = splitHeaders(part.replace(/^\r\n/, ''));
			collectParts(inner.headers, inner.body, bodies);
		}
		return;
	}
	const decoded = decodeBody(body, headers['content-transfer-encoding'] ?? '').replace(
		/\r\n/g,
		'\n',
	);
	if (type.startsWith('text/html')) bodies.html += decoded;
	else if (type.startsWith('text/plain')) bodies.text += decoded;
}

/** @param {string} body @param {string} encoding */
function decodeBody(body, encoding) {
	const enc = encoding.toLowerCase();
	if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
	if (enc === 'quoted-printable') return decodeQuotedPrintable(body);
	return body;
}

/** @param {string} text */
function decodeQuotedPrintable(text) {
	const joined = text.replace(/=\r?\n/g, '');
	const bytes = [];
	for (let i = 0; i < joined.length; i++) {
		const hex = joined.slice(i + 1, i + 3);
		if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
			bytes.push(parseInt(hex, 16));
			i += 2;
		} else bytes.push(...Buffer.from(joined[i], 'utf8'));
	}
	return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=). @param {string} value */
function decodeWords(value) {
	return value
		.replace(/\?=\s+=\?/g, '?==?')
		.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset, kind, data) =>
			kind.toUpperCase() === 'B'
				? Buffer.from(data, 'base64').toString('utf8')
				: decodeQuotedPrintable(data.replace(/_/g, ' ')),
		);
}

/** @param {string} html */
function linksOf(html) {
	const links = [];
	const anchor = /<a\s[^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/gi;
	for (let found = anchor.exec(html); found; found = anchor.exec(html))
		links.push({ label: htmlToText(found[2]).trim(), url: unescapeHtml(found[1]) });
	return links;
}

/** @param {string} html */
function htmlToText(html) {
	return unescapeHtml(
		html
			.replace(/<head[\s\S]*?<\/head>/gi, '')
			.replace(/<style[\s\S]*?<\/style>/gi, '')
			.replace(/<br\s*\/?>/gi, '\n')
			.replace(/<\/(p|div|tr|h\d)>/gi, '\n')
			.replace(/<[^>]+>/g, ''),
	)
		.replace(/[ \t]+/g, ' ')
		.replace(/\n\s*\n+/g, '\n')
		.trim();
}

/** @param {string} text */
function unescapeHtml(text) {
	return text
		.replace(/&quot;/g, '"')
		.replace(/&#39;|&#x27;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}
