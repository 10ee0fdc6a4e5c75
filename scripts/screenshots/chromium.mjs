// The headless Chromium of `npm run screenshots`: Debian's `chromium` (or CHROMIUM_PATH) driven by
// puppeteer-core installed into .cache/ (never a dependency of this package, never a downloaded
// browser), signed in to n8n as npm start's owner, and the page helpers the shots use: waiting
// until nothing moves, boxes of elements, the node panel, and saving a cropped PNG.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { CACHE_DIR, OWNER, ROOT, cleanEnv, log, run } from '../n8n-runtime.mjs';

const PUPPETEER_DIR = path.join(CACHE_DIR, 'puppeteer-core');
const PUPPETEER_VERSION = '24.43.1';
/** Where the PNGs go. */
export const OUT_DIR = path.join(ROOT, 'docs', 'images');
/** Above this a PNG is too heavy for a README; shoot() says so. */
const MAX_PNG_BYTES = 300 * 1024;
/** Sharper text in the PNGs; the crops keep them small. */
export const SCALE = 1.5;

/** @param {number} ms */
const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** CHROMIUM_PATH, else the first of chromium, chromium-browser, google-chrome on PATH. */
export function findChromium() {
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
export async function loadPuppeteer() {
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

/**
 * A headless Chromium with one page signed in to the n8n at `n8nUrl` as npm start's owner. Close
 * it with `browser.close()`.
 * @param {any} puppeteer @param {string} n8nUrl
 * @param {{viewport: {width: number, height: number}, timeoutMs: number}} options
 */
export async function signedInPage(puppeteer, n8nUrl, { viewport, timeoutMs }) {
	const browser = await puppeteer.launch({
		executablePath: findChromium(),
		headless: true,
		args: ['--no-sandbox', '--disable-dev-shm-usage', '--hide-scrollbars', '--lang=en-US'],
		defaultViewport: { ...viewport, deviceScaleFactor: SCALE },
	});
	try {
		const page = await browser.newPage();
		page.setDefaultTimeout(timeoutMs);
		await page.goto(`${n8nUrl}/signin`, { waitUntil: 'networkidle2' });
		await page.type('input[name=emailOrLdapLoginId]', OWNER.email);
		await page.type('input[name=password]', OWNER.password);
		await page.click('[data-test-id=form-submit-button]');
		await page.waitForFunction(() => !location.pathname.startsWith('/signin'));
		return { browser, page };
	} catch (error) {
		await browser.close();
		throw error;
	}
}

/**
 * Saves the `clip` of the page as docs/images/<name>, saying its size (and when it is too heavy).
 * @param {any} page puppeteer Page
 * @param {string} name file name in docs/images/
 * @param {{x: number, y: number, width: number, height: number}} clip
 */
export async function shoot(page, name, clip) {
	fs.mkdirSync(OUT_DIR, { recursive: true });
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
export async function boxOf(page, selector) {
	const handle = await page.waitForSelector(selector, { visible: true, timeout: 30_000 });
	const box = await handle.boundingBox();
	if (!box) throw new Error(`${selector} has no box on the page.`);
	return box;
}

/** Waits until nothing moves (canvas fit, panel and dropdown transitions): two equal frames. @param {any} page */
export async function settle(page) {
	await page.evaluate(
		() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
	);
	await page.evaluate(() =>
		Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
	);
	await delay(300);
}

/** The panel's middle column (tabs and parameters), which n8n lets one resize. @param {any} page */
export async function parameterColumn(page) {
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
export async function dragX(page, from, toX) {
	await page.mouse.move(from.x, from.y);
	await page.mouse.down();
	await page.mouse.move(toX, from.y, { steps: 12 });
	await page.mouse.up();
}

/** Opens a node's panel by double-clicking it on the canvas. @param {any} page @param {string} name */
export async function openNode(page, name) {
	const node = await boxOf(page, `[data-test-id=canvas-node][data-node-name="${name}"]`);
	await page.mouse.click(node.x + node.width / 2, node.y + node.height / 2, { clickCount: 2 });
	await page.waitForSelector('[data-test-id=ndv]', { visible: true });
}

/** The whole node panel, as a crop. @param {any} page */
export async function ndvBox(page) {
	const ndv = await boxOf(page, '[data-test-id=ndv]');
	return {
		x: Math.floor(ndv.x),
		y: Math.floor(ndv.y),
		width: Math.ceil(ndv.width),
		height: Math.ceil(ndv.height),
	};
}

/** Hides the chip of the parent node that hangs over the panel's left edge (a crop would cut it in half). @param {any} page */
export async function hideFloatingNodes(page) {
	await page.addStyleTag({
		content: '[data-test-id=floating-nodes] { display: none !important; }',
	});
}
