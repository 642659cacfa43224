import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_MARKDOWN_CHARS, renderMarkdown } from "./render.js";

describe("renderMarkdown", () => {
	it("renders emphasis, lists, headings and inline code", () => {
		const html = renderMarkdown("# Plan\n\n**bold** and _soft_ and `code`\n\n- one\n- two");
		expect(html).toContain("<h1>Plan</h1>");
		expect(html).toContain("<strong>bold</strong>");
		expect(html).toContain("<em>soft</em>");
		expect(html).toContain("<code>code</code>");
		expect(html).toContain("<li>one</li>");
	});

	it("keeps a typed line break as a line break", () => {
		expect(renderMarkdown("first\nsecond")).toContain("first<br>\nsecond");
	});

	it("shows raw HTML as text, never as markup", () => {
		const html = renderMarkdown('<script>alert(1)</script> <img src=x onerror="alert(2)"> <b>x</b>');
		expect(html).not.toMatch(/<script|<img|<b>/);
		expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
	});

	it("links only http(s), mailto and in-page targets, opening them in a new tab without a referrer", () => {
		const html = renderMarkdown(
			"[ok](https://example.com) [bad](javascript:alert(1)) [data](data:text/html,x) [mail](mailto:a@b.c)",
		);
		expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">ok</a>');
		expect(html).toContain('href="mailto:a@b.c"');
		expect(html).toContain("[bad](javascript:alert(1))");
		expect(html).not.toContain('href="javascript:');
		expect(html).not.toContain('href="data:');
	});

	it("never loads an image: it becomes a link, or stays text when its address is not allowed", () => {
		const html = renderMarkdown("![chart](https://example.com/c.png) ![pixel](data:image/png;base64,AAAA)");
		expect(html).not.toContain("<img");
		expect(html).toContain('<a class="image-ref" href="https://example.com/c.png"');
		expect(html).not.toContain('href="data:');
		expect(html).toContain("![pixel](data:image/png;base64,AAAA)");
	});

	it("highlights a fenced block in a known language and escapes it", () => {
		const html = renderMarkdown("```ts\nconst a: number = 1 < 2 ? 1 : 2;\n```");
		expect(html).toContain('<pre class="code"><code class="hljs language-ts">');
		expect(html).toContain('<span class="hljs-keyword">const</span>');
		expect(html).toContain("&lt;");
	});

	it("shows a block in an unknown language as plain escaped code", () => {
		const html = renderMarkdown("```nonsense\n<b>x</b>\n```");
		expect(html).toContain("&lt;b&gt;x&lt;/b&gt;");
		expect(html).not.toContain("hljs-");
	});

	it("aligns table columns with classes, not style attributes (a strict CSP refuses those)", () => {
		const html = renderMarkdown("| a | b |\n|:-|-:|\n| 1 | 2 |");
		expect(html).toContain('<th class="align-left">a</th>');
		expect(html).toContain('<td class="align-right">2</td>');
		expect(html).not.toContain("style=");
	});

	it("shows text over the size limit as preformatted, escaped text", () => {
		const text = `**not bold** <b>${"x".repeat(MAX_MARKDOWN_CHARS)}`;
		const html = renderMarkdown(text);
		expect(html.startsWith('<pre class="plain">**not bold** &lt;b&gt;')).toBe(true);
	});

	it("shows a link with an empty or refused target as its text (property counterexample)", () => {
		for (const text of ["[a]()", "[a]( )", "x [a]() y"]) {
			const html = renderMarkdown(text);
			expect(html).not.toContain("<a");
			expect(html).toMatch(/<p>(x )?a( y)?<\/p>/);
		}
		expect(renderMarkdown("[a](javascript:alert(1))")).not.toContain("<a");
	});

	it("never emits a script, an event handler, a style or a dangerous link, whatever the text", () => {
		const pieces = fc.constantFrom(
			"<script>",
			"</script>",
			"<img src=x onerror=alert(1)>",
			'" onclick="x',
			"javascript:",
			"[a](",
			"](javascript:alert(1))",
			"![i](",
			"<style>",
			"style=",
			"```html\n",
			"\n```\n",
			"<a href='javascript:x'>",
			"`",
			"*",
			"\n",
			"|",
			"-|",
			"&lt;",
			"vbscript:",
			"data:text/html,",
		);
		fc.assert(
			fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 30 }), (parts) => {
				const html = renderMarkdown(parts.join(""));
				expect(html).not.toMatch(/<(script|style|img|iframe|object|embed|svg|math)\b/i);
				expect(html).not.toMatch(/<[^>]+\son\w+\s*=/i);
				expect(html).not.toMatch(/<[^>]+\sstyle\s*=/i);
				expect(html).not.toMatch(/href\s*=\s*"(?!https?:|mailto:|#|\/)/i);
			}),
			{ numRuns: 400 },
		);
	});
});
