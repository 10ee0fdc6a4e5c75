// The queue-mode files run in their numbered order.
const Sequencer = require('@jest/test-sequencer').default;

class ByName extends Sequencer {
	sort(tests) {
		return [...tests].sort((a, b) => a.path.localeCompare(b.path));
	}
}

module.exports = ByName;
