/** The fenced code block that follows `<!-- marker -->` in a README, if there is one. */
export function markedBlock(readme: string, marker: string): string | undefined {
	const match = new RegExp(`<!-- ${marker} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(readme);
	return match?.[1];
}

export interface ReadmeExample {
	/** The example's code, an ES module. */
	code: string;
	/** What it prints, when the README shows it. */
	output: string | undefined;
}

/**
 * The runnable example of a package README: the block marked `<!-- example -->` (and what it
 * prints, marked `<!-- example-output -->`), the convention the packages' readme tests use.
 */
export function readmeExample(readme: string): ReadmeExample | undefined {
	const code = markedBlock(readme, "example");
	return code === undefined ? undefined : { code, output: markedBlock(readme, "example-output") };
}

/** Every fenced code block of a README with its language. */
export function codeBlocks(readme: string): { lang: string; code: string }[] {
	return [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((match) => ({
		lang: match[1] ?? "",
		code: match[2] ?? "",
	}));
}
