/** At most this many matches are marked in one element. */
const MAX_MARKS = 100;

/**
 * Marks every case-insensitive occurrence of `text` in the element's message text (its Markdown
 * and preformatted blocks; not its header or buttons) with <mark class="hit">, and returns how
 * many it marked. Text is split only around the matches; nothing is parsed as HTML.
 */
export function markText(root: HTMLElement, text: string): number {
	const needle = text.trim().toLowerCase();
	if (needle.length === 0) return 0;
	const nodes: Text[] = [];
	for (const area of root.querySelectorAll<HTMLElement>(".markdown, pre, .text")) {
		const walker = document.createTreeWalker(area, NodeFilter.SHOW_TEXT);
		for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
	}
	let marked = 0;
	for (const node of nodes) {
		let current: Text = node;
		for (;;) {
			if (marked >= MAX_MARKS) return marked;
			const original = current.textContent ?? "";
			const lower = original.toLowerCase();
			// Lowercasing changed the length (a rare letter such as "İ"): offsets would not match; left unmarked.
			if (lower.length !== original.length) break;
			const at = lower.indexOf(needle);
			if (at < 0) break;
			const match = current.splitText(at);
			const rest = match.splitText(needle.length);
			const mark = document.createElement("mark");
			mark.className = "hit";
			match.replaceWith(mark);
			mark.append(match);
			marked++;
			current = rest;
		}
	}
	return marked;
}
