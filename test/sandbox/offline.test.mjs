// The offline stand-ins of test/e2e/agent-review.test.mjs: the scripted OpenAI-compatible model and
// the SMTP catcher (sandbox/offline/).
import net from 'node:net';
import { scenarioMarker, startChatModel } from '../../sandbox/offline/chatModel.mjs';
import { parseMail, startMailbox } from '../../sandbox/offline/mailbox.mjs';

const GATED = {
	type: 'object',
	properties: { toolParameters: { type: 'object' }, hitlParameters: { type: 'object' } },
};
const tool = (name, parameters = { type: 'object', properties: {} }) => ({
	type: 'function',
	function: { name, description: name, parameters },
});

/** @param {string} url @param {object} body */
const complete = async (url, body) => {
	const response = await fetch(`${url}/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ model: 'scripted-model', ...body }),
	});
	return { status: response.status, text: await response.text() };
};

describe('scripted chat model', () => {
	/** @type {Awaited<ReturnType<typeof startChatModel>>} */
	let model;
	beforeAll(async () => {
		model = await startChatModel();
	});
	afterAll(() => model.close());

	test('answers step by step (assistant turns so far), wraps a gated tool, records the requests', async () => {
		model.script('s1', [
			{ tools: [{ tool: /^Pay/, args: { amount: '1.00' } }] },
			{ tools: [{ tool: 'Look_up', args: (body) => ({ seen: body.messages.length }) }] },
			{ text: 'Done.' },
		]);
		const tools = [tool('Look_up'), tool('Pay_out', GATED)];
		const user = { role: 'user', content: `Pay. ${scenarioMarker('s1')}` };
		const first = JSON.parse((await complete(model.url, { messages: [user], tools })).text);
		const call = first.choices[0].message.tool_calls[0];
		expect(first.choices[0].finish_reason).toBe('tool_calls');
		expect(call.function.name).toBe('Pay_out');
		expect(JSON.parse(call.function.arguments)).toEqual({
			toolParameters: { amount: '1.00' },
			hitlParameters: {},
		});
		const toolMessage = { role: 'tool', tool_call_id: call.id, content: 'User rejected' };
		const turn = [user, first.choices[0].message, toolMessage];
		const second = JSON.parse((await complete(model.url, { messages: turn, tools })).text);
		expect(JSON.parse(second.choices[0].message.tool_calls[0].function.arguments)).toEqual({
			seen: 3,
		});
		const third = JSON.parse(
			(
				await complete(model.url, {
					messages: [...turn, second.choices[0].message, toolMessage],
					tools,
				})
			).text,
		);
		expect(third.choices[0].message.content).toBe('Done.');
		expect(model.requests('s1').map((r) => r.step)).toEqual([0, 1, 2]);
		expect(model.toolResults('s1').map((r) => r.content)).toEqual([
			'User rejected',
			'User rejected',
		]);
		expect(model.toolNames('s1')).toEqual(['Look_up', 'Pay_out']);
	});

	test('a conversation without a known scenario, or a tool that is not offered: HTTP 400 saying why', async () => {
		const none = await complete(model.url, { messages: [{ role: 'user', content: 'hi' }] });
		expect(none.status).toBe(400);
		expect(none.text).toContain('marker missing');
		model.script('s2', [{ tools: [{ tool: /^Refund$/ }] }]);
		const missing = await complete(model.url, {
			messages: [{ role: 'user', content: scenarioMarker('s2') }],
			tools: [tool('Pay_out')],
		});
		expect(missing.status).toBe(400);
		expect(missing.text).toContain('No tool matches /^Refund$/ among the request');
	});

	test('streams when asked; lists its model', async () => {
		model.script('s3', [{ text: 'Hello.' }]);
		const streamed = await complete(model.url, {
			stream: true,
			messages: [{ role: 'user', content: scenarioMarker('s3') }],
		});
		expect(streamed.text).toContain('"content":"Hello."');
		expect(streamed.text.trim().endsWith('data: [DONE]')).toBe(true);
		const models = await (await fetch(`${model.url}/models`)).json();
		expect(models.data[0].id).toBe('scripted-model');
	});
});

describe('SMTP catcher', () => {
	test('keeps a message sent over SMTP: subject, decoded HTML, its links', async () => {
		const mailbox = await startMailbox();
		try {
			const socket = net.connect(mailbox.port, '127.0.0.1');
			socket.setEncoding('utf8');
			let received = '';
			socket.on('data', (chunk) => (received += chunk));
			const until = async (/** @type {RegExp} */ pattern) => {
				for (let i = 0; i < 200 && !pattern.test(received); i++)
					await new Promise((resolve) => setTimeout(resolve, 10));
				expect(received).toMatch(pattern);
			};
			await until(/^220 /m);
			const html =
				'<p>Pay USD 1.00=3F</p><a href=3D"http://x/webhook-waiting/1/r?approved=3Dtrue&amp;signature=3Dab" t=\r\narget=3D"_blank">Approve</a>';
			for (const [line, reply] of [
				['EHLO test', /^250 SIZE/m],
				['MAIL FROM:<n8n@example.com>', /2\.1\.0/],
				['RCPT TO:<reviewer@example.com>', /2\.1\.5/],
				['DATA', /^354 /m],
			]) {
				socket.write(`${line}\r\n`);
				await until(reply);
			}
			socket.write(
				`Subject: =?UTF-8?Q?Approve_a_payout=3F?=\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${html}\r\n.\r\nQUIT\r\n`,
			);
			const mail = await mailbox.waitForMessage(() => true, { timeoutMs: 5000 });
			expect(mail.subject).toBe('Approve a payout?');
			expect(mail.to).toEqual(['reviewer@example.com']);
			expect(mail.text).toContain('Pay USD 1.00?');
			expect(mail.links).toEqual([
				{ label: 'Approve', url: 'http://x/webhook-waiting/1/r?approved=true&signature=ab' },
			]);
			socket.destroy();
		} finally {
			await mailbox.close();
		}
	});

	test('multipart and base64 bodies', () => {
		const raw =
			'Subject: Hi\r\nContent-Type: multipart/alternative; boundary="b1"\r\n\r\n--b1\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n' +
			Buffer.from('plain words').toString('base64') +
			'\r\n--b1\r\nContent-Type: text/html\r\n\r\n<b>html</b>\r\n--b1--\r\n';
		const mail = parseMail(raw, 'a@x', ['b@y']);
		expect(mail.text).toBe('plain words');
		expect(mail.html).toContain('<b>html</b>');
	});
});
