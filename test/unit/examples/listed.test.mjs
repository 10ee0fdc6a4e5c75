// Every workflow in examples/ (the ones `npm start` imports) is one that examples.test.ts checks
// on the canvas: a new example cannot skip the checks by not being listed there. (JavaScript: the
// community lint forbids fs and path in TypeScript files.)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

test('every workflow in examples/ is checked by examples.test.ts', () => {
	const source = fs.readFileSync(path.join(root, 'test/unit/examples/examples.test.ts'), 'utf8');
	const files = fs.readdirSync(path.join(root, 'examples')).filter((f) => f.endsWith('.json'));
	expect(files.length).toBeGreaterThanOrEqual(5);
	const unchecked = files.filter(
		(file) => !source.includes(`'../../../examples/${file}'`) || !source.includes(`['${file}',`),
	);
	expect(unchecked).toEqual([]);
});
