// Copies the node and credential icons next to the compiled JavaScript in dist/.
const path = require('path');
const { task, src, dest } = require('gulp');

function copyIcons() {
	const nodeIcons = src('nodes/**/*.{png,svg}', { encoding: false }).pipe(dest(path.resolve('dist', 'nodes')));
	nodeIcons.on('end', () => {
		src('credentials/**/*.{png,svg}', { encoding: false }).pipe(dest(path.resolve('dist', 'credentials')));
	});
	return nodeIcons;
}

task('build:icons', copyIcons);
