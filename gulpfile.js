// Copies the icons (one source, in icons/) next to the compiled JavaScript: dist/icons/, which the
// nodes and the credentials point at with `file:../../icons/…` and `file:../icons/…`.
const path = require('path');
const { task, src, dest } = require('gulp');

function copyIcons() {
	return src('icons/*.{png,svg}', { encoding: false }).pipe(dest(path.resolve('dist', 'icons')));
}

task('build:icons', copyIcons);
