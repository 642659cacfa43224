/**
 * Session ids that must never reach the filesystem: path traversal, NUL bytes, look-alike
 * Unicode, near misses of the ULID form. `trapId` is a real ULID planted outside the home, so a
 * traversal that got through would find a session there.
 */
export function unsafeIds(trapId: string, trapDir: string): string[] {
	const valid = "01JMRZ8X1Q9V5E2H3K4M6N7P8R";
	const swap = (at: number, char: string) => `${valid.slice(0, at)}${char}${valid.slice(at + 1)}`;
	return [
		"",
		".",
		"..",
		"../",
		`../../outside/sessions/${trapId}`,
		`..\\..\\outside\\sessions\\${trapId}`,
		`${trapDir}`,
		"/etc/passwd",
		"%2e%2e%2f%2e%2e%2f",
		`${trapId}/../../../outside/sessions/${trapId}`,
		`${trapId}\u0000`,
		`\u0000${trapId}`,
		`${trapId.slice(0, 13)}\u0000${trapId.slice(14)}`,
		`${valid}\n`,
		` ${valid}`,
		`${valid} `,
		`${valid}\r`,
		valid.toLowerCase(),
		valid.slice(0, 25),
		`${valid}0`,
		swap(4, "I"),
		swap(4, "L"),
		swap(4, "O"),
		swap(4, "U"),
		swap(3, "\u041c"), // Cyrillic capital EM for M
		swap(5, "\u0417"), // Cyrillic ZE for 3... a look-alike of 8's neighbour
		swap(6, "\u0425"), // Cyrillic HA for X
		swap(0, "\uff10"), // fullwidth digit zero
		swap(1, "\u{1d7cf}"), // mathematical bold digit one (a surrogate pair)
		swap(2, "\u0408"), // Cyrillic JE for J
		swap(7, "\u0131"), // dotless i
		`${valid}\u200d`, // zero-width joiner
		`\u202e${valid}`, // right-to-left override
		`${valid.slice(0, 25)}\u0301`, // a combining accent in place of the last character
		"CON",
		"x".repeat(4096),
	];
}
