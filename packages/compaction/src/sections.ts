/** The sections every compaction summary must have (S7.14). */
export const REQUIRED_SUMMARY_SECTIONS: readonly string[] = [
	"Goal",
	"Progress",
	"Key Decisions",
	"Next Steps",
	"Critical Context",
];

/** The required sections `summary` lacks, as `## Heading` lines (any case, optional trailing text). */
export function missingSummarySections(
	summary: string,
	required: readonly string[] = REQUIRED_SUMMARY_SECTIONS,
): string[] {
	const headings = new Set<string>();
	for (const match of summary.matchAll(/^[ \t]*##[ \t]+(.+?)[ \t#]*$/gm)) {
		headings.add(normalize(match[1] as string));
	}
	return required.filter((section) => {
		const wanted = normalize(section);
		for (const heading of headings) if (heading === wanted || heading.startsWith(`${wanted} `)) return false;
		return true;
	});
}

function normalize(heading: string): string {
	return heading
		.replace(/[*_`:]/g, "")
		.replace(/\s+/g, " ")
		.trim()
		.toLowerCase();
}
