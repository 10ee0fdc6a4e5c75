// `npm run screenshots`: the PNGs in docs/images/, taken from a real n8n 2.x editor by a headless
// Chromium (Debian's `chromium`, driven by puppeteer-core installed into .cache/, never a
// dependency of this package and never a downloaded browser).
//
// If an n8n already answers on N8N_PORT (default 5678: `npm start` in another terminal) it is
// reused, with its sandbox on SANDBOX_PORT (default 4010); otherwise this script starts its own n8n
// and sandbox in a throw-away user folder (npm start's home is never touched) and stops them at the
// end. Either way it seeds a few people in the sandbox, adds a small "Charge a customer" workflow
// (deleted again from a reused n8n), logs in as npm start's owner and saves:
//   docs/images/workflow.png        examples/onboard-customer.json on the canvas
//   docs/images/node-panel.png      the FacilitaPay node's panel: Transaction > Create Dynamic PIX
//   docs/images/subject-picker.png  its Subject field's From list, open, with the sandbox's people
//   docs/images/preview-output.png  Create Payout with Preview Only run on three payouts: the output
//                                   items (what would be sent) and the hint with count and total
//   docs/images/trigger-panel.png   the FacilitaPay Trigger's panel: how to test with one URL per account
// Variables: N8N_PORT, N8N_RUNNERS_BROKER_PORT, SANDBOX_PORT, SANDBOX_TOKEN (as npm start),
// CHROMIUM_PATH (default: the first of chromium, chromium-browser, google-chrome on PATH).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import {
	CACHE_DIR,
	OWNER,
	ROOT,
	assertPortFree,
	buildAndPackPackage,
	cleanEnv,
	ensureN8n,
	importIntoN8n,
	installPackageInto,
	localPorts,
	log,
	removeUserFolder,
	run,
	sandboxCredentials,
	setupOwner,
	startN8n,
} from './n8n-runtime.mjs';
import { createSandbox } from '../sandbox/server.mjs';

const startedAt = Date.now();
const { n8nPort, brokerPort, sandboxPort, sandboxToken } = localPorts();
const n8nUrl = `http://127.0.0.1:${n8nPort}`;
const OUT_DIR = path.join(ROOT, 'docs', 'images');
const PUPPETEER_DIR = path.join(CACHE_DIR, 'puppeteer-core');
const PUPPETEER_VERSION = '24.43.1';
const EXAMPLE_FILE = path.join(ROOT, 'examples', 'onboard-customer.json');
const CREDENTIALS = { id: 'facilitapay-sandbox', name: 'FacilitaPay Sandbox' };
/** Above this a PNG is too heavy for a README; the script says so. */
const MAX_PNG_BYTES = 300 * 1024;
/** Sharper text in the PNGs; the crops keep them small. */
const SCALE = 1.5;

/** The people the Subject list shows. The same document again updates that person: re-runs add none. */
const PEOPLE = [
	{
		social_name: 'Maria Silva',
		document_type: 'cpf',
		document_number: '12345678909',
		fiscal_country: 'BR',
		email: 'maria.silva@example.com',
	},
	{
		social_name: 'João Pereira',
		document_type: 'cpf',
		document_number: '52998224725',
		fiscal_country: 'BR',
	},
	{
		social_name: 'Ana Costa',
		document_type: 'cpf',
		document_number: '11144477735',
		fiscal_country: 'BR',
	},
	{
		social_name: 'Carlos Souza',
		document_type: 'cpf',
		document_number: '39053344705',
		fiscal_country: 'BR',
	},
	{
		social_name: 'Lucas Oliveira',
		document_type: 'passport',
		document_number: 'FX1234567',
		fiscal_country: 'PT',
	},
];
const PICKED_LABEL = 'Maria Silva · CPF ***.456.789-** · approved';

/** @param {number} ms */
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// The browser

function findChromium() {
	const given = process.env.CHROMIUM_PATH;
	if (given) {
		if (!fs.existsSync(given)) throw new Error(`CHROMIUM_PATH=${given} does not exist.`);
		return given;
	}
	const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
	for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
		for (const dir of dirs) {
			const candidate = path.join(dir, name);
			if (fs.existsSync(candidate)) return candidate;
		}
	}
	throw new Error(
		"No Chromium found. Install Debian's (`sudo apt-get install -y chromium`) or set CHROMIUM_PATH to a Chrome/Chromium binary.",
	);
}

/** puppeteer-core from .cache/puppeteer-core/, installed there once (no browser download). */
async function loadPuppeteer() {
	const manifest = path.join(PUPPETEER_DIR, 'package.json');
	const installed = path.join(PUPPETEER_DIR, 'node_modules', 'puppeteer-core', 'package.json');
	if (!fs.existsSync(installed)) {
		log(
			`installing puppeteer-core@${PUPPETEER_VERSION} into ${path.relative(ROOT, PUPPETEER_DIR) || PUPPETEER_DIR}/ (not a project dependency)…`,
		);
		fs.mkdirSync(PUPPETEER_DIR, { recursive: true });
		if (!fs.existsSync(manifest)) fs.writeFileSync(manifest, '{"private": true}\n');
		await run(
			'npm',
			[
				'install',
				'--no-audit',
				'--no-fund',
				'--prefix',
				PUPPETEER_DIR,
				`puppeteer-core@${PUPPETEER_VERSION}`,
			],
			{
				cwd: PUPPETEER_DIR,
				env: cleanEnv({ PUPPETEER_SKIP_DOWNLOAD: '1' }),
				logFile: path.join(PUPPETEER_DIR, 'install.log'),
				what: 'Installing puppeteer-core',
			},
		);
	}
	const resolved = createRequire(manifest).resolve('puppeteer-core');
	return (await import(pathToFileURL(resolved).href)).default;
}

// ---------------------------------------------------------------------------------------------
// n8n and the sandbox: reuse the running ones or start our own

/** @param {string} url */
async function answers(url) {
	try {
		return (await fetch(url, { signal: AbortSignal.timeout(3000) })).ok;
	} catch {
		return false;
	}
}

/** @type {Array<() => Promise<unknown>>} */
const cleanups = [];

async function startOwnN8nAndSandbox() {
	await assertPortFree(n8nPort, 'n8n (N8N_PORT)');
	await assertPortFree(brokerPort, "n8n's task broker (N8N_RUNNERS_BROKER_PORT)");
	await assertPortFree(sandboxPort, 'the sandbox (SANDBOX_PORT)');
	const [tarball] = await Promise.all([buildAndPackPackage({ reuse: true }), ensureN8n('v2')]);
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'facilitapay-screenshots-'));
	cleanups.push(async () => removeUserFolder(userFolder));
	installPackageInto(userFolder, tarball);

	const sandbox = await createSandbox({
		port: sandboxPort,
		host: '127.0.0.1',
		token: sandboxToken,
	});
	await sandbox.listen();
	cleanups.push(() => sandbox.close());
	sandbox.followRealTime?.((/** @type {Error} */ error) => log(`sandbox clock: ${error.message}`));
	const sandboxUrl = String(sandbox.url ?? `http://127.0.0.1:${sandboxPort}`).replace(/\/$/, '');

	const options = { version: /** @type {const} */ ('v2'), userFolder };
	const credentials = sandboxCredentials({
		baseUrl: `${sandboxUrl}/api/v1`,
		token: sandboxToken,
		...CREDENTIALS,
	});
	await importIntoN8n('credentials', [credentials], options);
	await importIntoN8n('workflow', [JSON.parse(fs.readFileSync(EXAMPLE_FILE, 'utf8'))], options);
	const n8n = await startN8n({ version: 'v2', userFolder, port: n8nPort, brokerPort });
	cleanups.push(() => n8n.stop());
	return sandboxUrl;
}

// ---------------------------------------------------------------------------------------------
// Content: people in the sandbox, one workflow in n8n

/** @param {string} sandboxUrl */
async function seedPeople(sandboxUrl) {
	/** @type {Record<string, string>} */
	const ids = {};
	for (const person of PEOPLE) {
		const response = await fetch(`${sandboxUrl}/api/v1/subject/people`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sandboxToken}`, 'content-type': 'application/json' },
			body: JSON.stringify({ person }),
		});
		const body = await response.json().catch(() => ({}));
		if (!response.ok) {
			throw new Error(
				`The sandbox refused person "${person.social_name}" (HTTP ${response.status}: ${JSON.stringify(body).slice(0, 300)}).`,
			);
		}
		ids[person.social_name] = body.data.id;
	}
	return ids;
}

/** The workflow whose FacilitaPay node the panel and picker shots show. */
function chargeWorkflow(mariaId) {
	const trigger = 'When clicking ‘Execute workflow’';
	return {
		name: 'FacilitaPay: Charge a customer (screenshots)',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'b7d1a3c0-0000-4000-8000-000000000001',
				name: trigger,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'b7d1a3c0-0000-4000-8000-000000000002',
				name: 'Create PIX Charge',
				type: 'n8n-nodes-facilitapay.facilitaPay',
				typeVersion: 1,
				position: [240, 0],
				credentials: { facilitaPayApi: CREDENTIALS },
				parameters: {
					resource: 'transaction',
					operation: 'createDynamicPix',
					subjectId: { __rl: true, mode: 'list', value: mariaId, cachedResultName: PICKED_LABEL },
					value: '49.90',
					fromBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000001',
					toBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000002',
					exchangeCurrency: 'BRL',
					qrCodeImage: true,
					qrCodeBinaryProperty: 'qrCode',
				},
			},
		],
		connections: { [trigger]: { main: [[{ node: 'Create PIX Charge', type: 'main', index: 0 }]] } },
	};
}

// ---------------------------------------------------------------------------------------------
// The shots

/**
 * @param {any} page puppeteer Page
 * @param {string} name file name in docs/images/
 * @param {{x: number, y: number, width: number, height: number}} clip
 */
async function shoot(page, name, clip) {
	const file = path.join(OUT_DIR, name);
	await page.screenshot({ path: file, clip, captureBeyondViewport: false });
	const bytes = fs.statSync(file).size;
	log(
		`saved docs/images/${name} (${Math.round(clip.width * SCALE)}x${Math.round(clip.height * SCALE)}, ${(bytes / 1024).toFixed(0)} kB)`,
	);
	if (bytes > MAX_PNG_BYTES)
		log(`  docs/images/${name} is over ${MAX_PNG_BYTES / 1024} kB: crop it tighter`);
}

/** @param {any} page @param {string} selector */
async function boxOf(page, selector) {
	const handle = await page.waitForSelector(selector, { visible: true, timeout: 30_000 });
	const box = await handle.boundingBox();
	if (!box) throw new Error(`${selector} has no box on the page.`);
	return box;
}

/** Waits until nothing moves (canvas fit, panel and dropdown transitions): two equal frames. */
async function settle(page) {
	await page.evaluate(
		() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
	);
	await page.evaluate(() =>
		Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
	);
	await delay(300);
}

/** The panel's middle column (tabs and parameters), which n8n lets one resize. @param {any} page */
async function parameterColumn(page) {
	const box = await page.evaluate(() => {
		const parameters = document.querySelector('[data-test-id=node-parameters]');
		let column = parameters;
		while (column && !/_resize_/.test(String(column.className))) column = column.parentElement;
		const r = (column ?? parameters)?.getBoundingClientRect();
		return r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
	});
	if (!box)
		throw new Error('The node panel has no parameter column ([data-test-id=node-parameters]).');
	return box;
}

/** @param {any} page @param {{x: number, y: number}} from @param {number} toX */
async function dragX(page, from, toX) {
	await page.mouse.move(from.x, from.y);
	await page.mouse.down();
	await page.mouse.move(toX, from.y, { steps: 12 });
	await page.mouse.up();
}

async function takeShots(puppeteer, { exampleId, chargeId, people }) {
	fs.mkdirSync(OUT_DIR, { recursive: true });
	const browser = await puppeteer.launch({
		executablePath: findChromium(),
		headless: true,
		args: ['--no-sandbox', '--disable-dev-shm-usage', '--hide-scrollbars', '--lang=en-US'],
		defaultViewport: { width: 1280, height: 800, deviceScaleFactor: SCALE },
	});
	try {
		const page = await browser.newPage();
		page.setDefaultTimeout(30_000);
		await page.goto(`${n8nUrl}/signin`, { waitUntil: 'networkidle2' });
		await page.type('input[name=emailOrLdapLoginId]', OWNER.email);
		await page.type('input[name=password]', OWNER.password);
		await page.click('[data-test-id=form-submit-button]');
		await page.waitForFunction(() => !location.pathname.startsWith('/signin'));

		// 1. The onboarding example on the canvas, a viewport as wide as the workflow.
		await page.setViewport({ width: 1280, height: 640, deviceScaleFactor: SCALE });
		await page.goto(`${n8nUrl}/workflow/${exampleId}`, { waitUntil: 'networkidle2' });
		await page.waitForSelector('[data-test-id=canvas-node][data-node-name="Create PIX Charge"]');
		// n8n fits the workflow into the view on opening; the pointer stays off the nodes.
		await page.mouse.move(1270, 90);
		await settle(page);
		const logs = await boxOf(page, '[data-test-id=logs-panel]');
		const sidebar = await boxOf(page, '[data-test-id=canvas-wrapper]');
		await shoot(page, 'workflow.png', {
			x: sidebar.x,
			y: 0,
			width: 1280 - sidebar.x,
			height: logs.y,
		});

		// 2. The FacilitaPay node's panel, its parameter column widened so the labels fit.
		await page.setViewport({ width: 1280, height: 800, deviceScaleFactor: SCALE });
		await page.goto(`${n8nUrl}/workflow/${chargeId}`, { waitUntil: 'networkidle2' });
		const node = await boxOf(
			page,
			'[data-test-id=canvas-node][data-node-name="Create PIX Charge"]',
		);
		await page.mouse.click(node.x + node.width / 2, node.y + node.height / 2, { clickCount: 2 });
		await page.waitForSelector('[data-test-id=resource-locator-subjectId]', { visible: true });
		await settle(page);
		const column = await parameterColumn(page);
		if (column.width < 640) {
			// Drag its right edge, then its left edge, outwards (n8n keeps the width for later panels).
			await dragX(
				page,
				{ x: column.x + column.width, y: column.y + column.height / 2 },
				column.x + column.width + 160,
			);
			await dragX(page, { x: column.x + 1, y: column.y + column.height / 2 }, column.x - 130);
		}
		// The chip of the parent node that hangs over the panel's left edge: cut in half by the crop.
		await page.addStyleTag({
			content: '[data-test-id=floating-nodes] { display: none !important; }',
		});
		await page.mouse.move(1270, 790);
		await settle(page);
		const ndv = await boxOf(page, '[data-test-id=ndv]');
		const panel = {
			x: Math.floor(ndv.x),
			y: Math.floor(ndv.y),
			width: Math.ceil(ndv.width),
			height: Math.ceil(ndv.height),
		};
		await shoot(page, 'node-panel.png', panel);

		// 3. The Subject field's From list, opened, after the entries came from the sandbox.
		await page.click('[data-test-id=resource-locator-subjectId] [data-test-id=rlc-input]');
		await page.waitForFunction(
			(names) => {
				const items = [...document.querySelectorAll('[data-test-id=rlc-item]')].map(
					(el) => el.textContent ?? '',
				);
				return names.every((name) => items.some((text) => text.includes(name)));
			},
			{ timeout: 30_000 },
			people,
		);
		await page.mouse.move(1270, 790);
		await settle(page);
		const wide = await parameterColumn(page);
		const listBottom = await page.$$eval('[data-test-id=rlc-item]', (items) =>
			Math.max(...items.map((item) => item.getBoundingClientRect().bottom)),
		);
		await shoot(page, 'subject-picker.png', {
			x: Math.floor(wide.x),
			y: Math.floor(wide.y),
			width: Math.ceil(wide.width),
			height: Math.ceil(listBottom + 14 - wide.y),
		});
	} finally {
		await browser.close();
	}
}

// ---------------------------------------------------------------------------------------------

async function cleanup() {
	for (const step of cleanups.reverse())
		await step().catch((error) => log(`cleaning up: ${error.message}`));
	cleanups.length = 0;
}

/** Three payouts into Create Payout with Preview Only on, and a FacilitaPay Trigger beside. */
function previewWorkflow(mariaId) {
	const trigger = 'When clicking ‘Execute workflow’';
	return {
		name: 'FacilitaPay: Preview payouts (screenshots)',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'b7d1a3c0-0000-4000-8000-000000000011',
				name: trigger,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'b7d1a3c0-0000-4000-8000-000000000012',
				name: 'Payouts',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					jsCode: `return ${JSON.stringify(
						[
							{ order: 'A-1001', value: '150.00' },
							{ order: 'A-1002', value: '89.90' },
							{ order: 'A-1003', value: '1200.00' },
						].map((json) => ({ json })),
					)};`,
				},
			},
			{
				id: 'b7d1a3c0-0000-4000-8000-000000000013',
				name: 'Preview Payouts',
				type: 'n8n-nodes-facilitapay.facilitaPay',
				typeVersion: 1,
				position: [440, 0],
				credentials: { facilitaPayApi: CREDENTIALS },
				parameters: {
					resource: 'transaction',
					operation: 'createPayout',
					subjectId: { __rl: true, mode: 'id', value: mariaId },
					value: '={{ $json.value }}',
					currency: 'USD',
					exchangeCurrency: 'BRL',
					fromBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000003',
					toBankAccountId: '0b5e7c2a-1f3d-4a8e-9c61-000000000006',
					idempotencyKey: '={{ $json.order }}',
					previewOnly: true,
				},
			},
			{
				id: 'b7d1a3c0-0000-4000-8000-000000000014',
				name: 'FacilitaPay Trigger',
				type: 'n8n-nodes-facilitapay.facilitaPayTrigger',
				typeVersion: 1.1,
				position: [0, 260],
				webhookId: 'b7d1a3c0-0000-4000-8000-000000000015',
				credentials: { facilitaPayApi: CREDENTIALS },
				parameters: { events: ['identified', 'wire_created'] },
			},
		],
		connections: {
			[trigger]: { main: [[{ node: 'Payouts', type: 'main', index: 0 }]] },
			Payouts: { main: [[{ node: 'Preview Payouts', type: 'main', index: 0 }]] },
		},
	};
}

/** Opens a node's panel by double-clicking it on the canvas. */
async function openNode(page, name) {
	const node = await boxOf(page, `[data-test-id=canvas-node][data-node-name="${name}"]`);
	await page.mouse.click(node.x + node.width / 2, node.y + node.height / 2, { clickCount: 2 });
	await page.waitForSelector('[data-test-id=ndv]', { visible: true });
}

/** The whole panel, as a crop. */
async function ndvBox(page) {
	const ndv = await boxOf(page, '[data-test-id=ndv]');
	return {
		x: Math.floor(ndv.x),
		y: Math.floor(ndv.y),
		width: Math.ceil(ndv.width),
		height: Math.ceil(ndv.height),
	};
}

/** 4 and 5: the preview output with its hint, and the trigger's panel. */
async function takePreviewShots(puppeteer, { previewId }) {
	const browser = await puppeteer.launch({
		executablePath: findChromium(),
		headless: true,
		args: ['--no-sandbox', '--disable-dev-shm-usage', '--hide-scrollbars', '--lang=en-US'],
		defaultViewport: { width: 1440, height: 860, deviceScaleFactor: SCALE },
	});
	try {
		const page = await browser.newPage();
		page.setDefaultTimeout(60_000);
		await page.goto(`${n8nUrl}/signin`, { waitUntil: 'networkidle2' });
		await page.type('input[name=emailOrLdapLoginId]', OWNER.email);
		await page.type('input[name=password]', OWNER.password);
		await page.click('[data-test-id=form-submit-button]');
		await page.waitForFunction(() => !location.pathname.startsWith('/signin'));

		await page.goto(`${n8nUrl}/workflow/${previewId}`, { waitUntil: 'networkidle2' });
		await page.waitForSelector('[data-test-id=canvas-node][data-node-name="Preview Payouts"]');
		await openNode(page, 'Preview Payouts');
		await page.click('[data-test-id=node-execute-button]');
		await page.waitForFunction(() =>
			document.body.innerText.includes('Nothing was sent to FacilitaPay'),
		);
		await page.addStyleTag({
			content: '[data-test-id=floating-nodes] { display: none !important; }',
		});
		await page.mouse.move(1430, 850);
		await settle(page);
		await shoot(page, 'preview-output.png', await ndvBox(page));

		await page.keyboard.press('Escape');
		await settle(page);
		await openNode(page, 'FacilitaPay Trigger');
		await page.waitForFunction(() => document.body.innerText.includes('one URL'));
		await page.mouse.move(1430, 850);
		await settle(page);
		await shoot(page, 'trigger-panel.png', await ndvBox(page));
	} finally {
		await browser.close();
	}
}

async function main() {
	// Fail before starting anything when there is no browser.
	findChromium();
	const puppeteer = await loadPuppeteer();

	let sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
	const reuse = await answers(`${n8nUrl}/healthz/readiness`);
	if (reuse) {
		log(`reusing the n8n at ${n8nUrl} and the sandbox at ${sandboxUrl}`);
		if (!(await answers(`${sandboxUrl}/_sandbox/accounts`))) {
			throw new Error(
				`n8n answers at ${n8nUrl} but no sandbox at ${sandboxUrl}. Set SANDBOX_PORT to the one \`npm start\` printed.`,
			);
		}
	} else {
		sandboxUrl = await startOwnN8nAndSandbox();
	}

	const ids = await seedPeople(sandboxUrl);
	const { client } = await setupOwner(n8nUrl);
	const created = await client.call('POST', '/rest/workflows', chargeWorkflow(ids['Maria Silva']));
	const chargeId = created.json?.data?.id;
	if (!created.ok || !chargeId)
		throw new Error(
			`n8n did not save the screenshot workflow (HTTP ${created.status}: ${created.text.slice(0, 300)}).`,
		);
	if (reuse) {
		// Leave the user's n8n as it was.
		cleanups.push(async () => {
			await client.call('POST', `/rest/workflows/${chargeId}/archive`);
			await client.call('DELETE', `/rest/workflows/${chargeId}`);
		});
	}
	const preview = await client.call('POST', '/rest/workflows', previewWorkflow(ids['Maria Silva']));
	const previewId = preview.json?.data?.id;
	if (!preview.ok || !previewId)
		throw new Error(`n8n did not save the preview workflow (HTTP ${preview.status}).`);
	if (reuse) {
		cleanups.push(async () => {
			await client.call('POST', `/rest/workflows/${previewId}/archive`);
			await client.call('DELETE', `/rest/workflows/${previewId}`);
		});
	}
	const exampleId = JSON.parse(fs.readFileSync(EXAMPLE_FILE, 'utf8')).id;
	if (process.env.SCREENSHOTS_ONLY !== 'preview')
		await takeShots(puppeteer, { exampleId, chargeId, people: PEOPLE.map((p) => p.social_name) });
	await takePreviewShots(puppeteer, { previewId });
	await cleanup();
	log(`done in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		void cleanup().then(() => process.exit(130));
	});
}

main().catch(async (error) => {
	process.stderr.write(`\nnpm run screenshots failed: ${error.stack ?? error.message}\n`);
	await cleanup();
	process.exit(1);
});
