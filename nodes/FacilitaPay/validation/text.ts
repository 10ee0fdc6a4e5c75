/**
 * Case mapping of ASCII letters only.
 *
 * JavaScript's `toUpperCase()` follows Unicode, which turns what a user typed into other letters
 * ("ß" → "SS", "ſ" → "S", "ı" → "I", "ﬁ" → "FI"): a wrong value would then pass a pattern such as
 * `^[A-Z]{2}$` and be sent. These functions change `a`–`z` (or `A`–`Z`) and nothing else, so any
 * other character stays as typed and the pattern refuses it.
 */
export function asciiUpperCase(text: string): string {
	return text.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** `A`–`Z` to `a`–`z`, nothing else (the Kelvin sign "K" stays, "İ" stays). */
export function asciiLowerCase(text: string): string {
	return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** How a character the user cannot see is named in a reason. */
export function describeCharacter(character: string): string {
	if (character === ' ') return 'a space';
	if (character === '\n' || character === '\r') return 'a line break';
	if (character === '\t') return 'a tab';
	if (/\s/.test(character)) return 'a space character';
	const code = character.charCodeAt(0);
	if (code < 0x20 || code === 0x7f) return 'a control character';
	return `"${character}"`;
}
