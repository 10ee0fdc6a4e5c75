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
// This file holds what the shots show (people, workflows) and how each is taken; the Chromium
// plumbing is in screenshots/chromium.mjs, n8n's and the sandbox's in screenshots/n8n.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, localPorts, log, setupOwner } from './n8n-runtime.mjs';
import {
	SCALE,
	boxOf,
	dragX,
	findChromium,
	hideFloatingNodes,
	loadPuppeteer,
	ndvBox,
	openNode,
	parameterColumn,
	settle,
	shoot,
	signedInPage,
} from './screenshots/chromium.mjs';
import {
	answers,
	cleanup,
	saveWorkflow,
	seedPeople,
	startOwnN8nAndSandbox,
} from './screenshots/n8n.mjs';

const startedAt = Date.now();
const { n8nPort, brokerPort, sandboxPort, sandboxToken } = localPorts();
const n8nUrl = `http://127.0.0.1:${n8nPort}`;
const EXAMPLE_FILE = path.join(ROOT, 'examples', 'onboard-customer.json');
const CREDENTIALS = { id: 'facilitapay-sandbox', name: 'FacilitaPay Sandbox' };

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

/**
 * A workflow for the shots: n8n's manual trigger (id `triggerId`), then `chain` one after another,
 * and `aside` (not connected).
 * @param {string} name @param {string} triggerId
 * @param {{chain: Array<{name: string}>, aside?: object[]}} nodes
 */
function screenshotWorkflow(name, triggerId, { chain, aside = [] }) {
	const trigger = {
		id: triggerId,
		name: 'When clicking ‘Execute workflow’',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const steps = [trigger, ...chain];
	return {
		name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [...steps, ...aside],
		connections: Object.fromEntries(
			steps
				.slice(0, -1)
				.map((step, i) => [
					step.name,
					{ main: [[{ node: steps[i + 1].name, type: 'main', index: 0 }]] },
				]),
		),
	};
}

/**
 * A node of this package on the sandbox credentials.
 * @param {{id: string, name: string, node?: 'facilitaPay'|'facilitaPayTrigger', typeVersion?: number, position: number[], parameters: object, webhookId?: string}} options
 */
function facilitaPayNode({ node = 'facilitaPay', typeVersion = 1, ...rest }) {
	return {
		type: `n8n-nodes-facilitapay.${node}`,
		typeVersion,
		credentials: { facilitaPayApi: CREDENTIALS },
		...rest,
	};
}

/** The workflow whose FacilitaPay node the panel and picker shots show. @param {string} mariaId */
function chargeWorkflow(mariaId) {
	return screenshotWorkflow(
		'FacilitaPay: Charge a customer (screenshots)',
		'b7d1a3c0-0000-4000-8000-000000000001',
		{
			chain: [
				facilitaPayNode({
					id: 'b7d1a3c0-0000-4000-8000-000000000002',
					name: 'Create PIX Charge',
					position: [240, 0],
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
				}),
			],
		},
	);
}

/** Three payouts into Create Payout with Preview Only on, and a FacilitaPay Trigger beside. @param {string} mariaId */
function previewWorkflow(mariaId) {
	const payouts = [
		{ order: 'A-1001', value: '150.00' },
		{ order: 'A-1002', value: '89.90' },
		{ order: 'A-1003', value: '1200.00' },
	];
	return screenshotWorkflow(
		'FacilitaPay: Preview payouts (screenshots)',
		'b7d1a3c0-0000-4000-8000-000000000011',
		{
			chain: [
				{
					id: 'b7d1a3c0-0000-4000-8000-000000000012',
					name: 'Payouts',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					position: [220, 0],
					parameters: {
						jsCode: `return ${JSON.stringify(payouts.map((json) => ({ json })))};`,
					},
				},
				facilitaPayNode({
					id: 'b7d1a3c0-0000-4000-8000-000000000013',
					name: 'Preview Payouts',
					position: [440, 0],
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
				}),
			],
			aside: [
				facilitaPayNode({
					id: 'b7d1a3c0-0000-4000-8000-000000000014',
					name: 'FacilitaPay Trigger',
					node: 'facilitaPayTrigger',
					typeVersion: 1.1,
					position: [0, 260],
					webhookId: 'b7d1a3c0-0000-4000-8000-000000000015',
					parameters: { events: ['identified', 'wire_created'] },
				}),
			],
		},
	);
}

// ---------------------------------------------------------------------------------------------
// The shots

/** 1 to 3: the example on the canvas, the node's panel and its Subject list. */
async function takeShots(puppeteer, { exampleId, chargeId, people }) {
	const { browser, page } = await signedInPage(puppeteer, n8nUrl, {
		viewport: { width: 1280, height: 800 },
		timeoutMs: 30_000,
	});
	try {
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
		await openNode(page, 'Create PIX Charge');
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
		await hideFloatingNodes(page);
		await page.mouse.move(1270, 790);
		await settle(page);
		await shoot(page, 'node-panel.png', await ndvBox(page));

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

/** 4 and 5: the preview output with its hint, and the trigger's panel. */
async function takePreviewShots(puppeteer, { previewId }) {
	const { browser, page } = await signedInPage(puppeteer, n8nUrl, {
		viewport: { width: 1440, height: 860 },
		timeoutMs: 60_000,
	});
	try {
		await page.goto(`${n8nUrl}/workflow/${previewId}`, { waitUntil: 'networkidle2' });
		await page.waitForSelector('[data-test-id=canvas-node][data-node-name="Preview Payouts"]');
		await openNode(page, 'Preview Payouts');
		await page.click('[data-test-id=node-execute-button]');
		await page.waitForFunction(() =>
			document.body.innerText.includes('Nothing was sent to FacilitaPay'),
		);
		await hideFloatingNodes(page);
		await page.mouse.move(1430, 850);
		await settle(page);
		await shoot(page, 'preview-output.png', await ndvBox(page));

		await page.keyboard.press('Escape');
		await settle(page);
		await openNode(page, 'FacilitaPay Trigger');
		await page.waitForFunction(() => document.body.innerText.includes('one published trigger'));
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

	const example = JSON.parse(fs.readFileSync(EXAMPLE_FILE, 'utf8'));
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
		sandboxUrl = await startOwnN8nAndSandbox({
			n8nPort,
			brokerPort,
			sandboxPort,
			sandboxToken,
			credentials: CREDENTIALS,
			workflows: [example],
		});
	}

	const ids = await seedPeople(sandboxUrl, sandboxToken, PEOPLE);
	const { client } = await setupOwner(n8nUrl);
	const chargeId = await saveWorkflow(client, chargeWorkflow(ids['Maria Silva']), { reuse });
	const previewId = await saveWorkflow(client, previewWorkflow(ids['Maria Silva']), { reuse });
	const exampleId = example.id;
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
