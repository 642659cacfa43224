import type { RecordInput } from "@agent/session-format";
import { describe, expect, it } from "vitest";
import { collect } from "../testing/test-collect.js";
import { storedRecords } from "../testing/test-context.js";
import { exportRecords } from "./export-session.js";
import { recordsFrom } from "./record-source.js";

const INFO = {
	id: "01JMRZ8X1Q9V5E2H3K4M6N7P8R",
	createdAt: "2026-01-01T00:00:00.000Z",
	name: "Demo <b>session</b>",
	model: "anthropic/claude",
};

const text = (t: string) => [{ type: "text" as const, text: t }];
const INPUTS: RecordInput[] = [
	{ recordType: "session_info", name: "Demo <b>session</b>" },
	{
		recordType: "message",
		role: "user",
		content: [
			...text("Run <script>alert(1)</script> & tell me"),
			{ type: "image", data: "aGVsbG8=", mimeType: "image/png" },
		],
	},
	{
		recordType: "message",
		role: "assistant",
		provider: "anthropic",
		model: "claude",
		content: [
			{ type: "thinking", thinking: "Let me think about `code`." },
			{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "echo ```" } },
		],
	},
	{
		recordType: "message",
		role: "toolResult",
		toolCallId: "call_1",
		toolName: "bash",
		isError: true,
		content: text("```\nboom"),
	},
	{
		recordType: "compaction",
		summary: "## Goal\nDemo.",
		firstKeptSeq: 2,
		tokensBefore: 99,
		readFiles: ["a.txt"],
		modifiedFiles: [],
	},
	{
		recordType: "message",
		role: "user",
		content: [{ type: "image", data: "x", mimeType: 'image/svg+xml" onload="alert(1)' }],
	},
	{ recordType: "message", role: "assistant", content: text("Abandoned answer"), parentSeq: 5 },
	{ recordType: "message", role: "assistant", content: text("Final answer"), parentSeq: 6 },
	{ recordType: "custom", customType: "my-extension", data: { secret: "extension state" } },
];
const source = recordsFrom(storedRecords(INPUTS));

describe("Markdown transcript", () => {
	it("shows the active branch: messages, thinking, tool calls, results, summaries; counts the rest", async () => {
		const md = await collect(exportRecords(source, INFO, "md"));
		expect(md).toMatch(/^# Demo &lt;b>session&lt;\/b>\n/);
		expect(md).toContain("- **Model:** anthropic/claude");
		expect(md).toContain("### User");
		expect(md).toContain("*[image: image/png, 5 bytes]*");
		expect(md).toContain("> *Thinking:* Let me think about `code`.");
		expect(md).toContain("**Tool call** `bash` (`call_1`)");
		expect(md).toContain("### Tool result: bash (error)");
		expect(md).toContain("### Compaction (99 tokens before; kept from #2)");
		expect(md).toContain("Final answer");
		expect(md).not.toContain("Abandoned answer");
		expect(md).toContain(
			"*Not shown: 1 record on other branches; 1 custom record (extension data, source lines kept as data).*",
		);
		expect(md).not.toContain("extension state");
	});

	it("fences are longer than any backtick run inside them", async () => {
		const md = await collect(exportRecords(source, INFO, "md"));
		expect(md).toContain('````json\n{\n  "command": "echo ```"\n}\n````');
		expect(md).toContain("````text\n```\nboom\n````");
	});
});

describe("pathological text stays linear (each took seconds to minutes with the regexes replaced)", () => {
	const spaces = " ".repeat(300_000);
	const hostile: RecordInput[] = [
		{ recordType: "session_info", name: `a${spaces}\n${spaces}b` },
		{
			recordType: "message",
			role: "user",
			content: [
				{ type: "image", data: `${spaces}!`, mimeType: "image/png" },
				{ type: "image", data: `aGVs${spaces}bG8=${spaces}`, mimeType: "image/png" },
				{ type: "text", text: "` ".repeat(300_000) },
			],
		},
		{
			recordType: "message",
			role: "toolResult",
			toolCallId: "c",
			toolName: "t",
			isError: false,
			content: text("` ".repeat(300_000)),
		},
	];
	const hostileSource = recordsFrom(storedRecords(hostile));

	it("Markdown: titles of 600,000 spaces around a newline, 300,000 backtick runs", async () => {
		const md = await collect(exportRecords(hostileSource, { ...INFO, name: `x${spaces}\n${spaces}y` }, "md"));
		expect(md.startsWith("# x y\n")).toBe(true);
		expect(md).toContain("*Named: a b*");
		expect(md).toContain("```text\n` ` `");
	});

	it("HTML: base64 checks of 300,000 spaces then a bad character, or spread through the data", async () => {
		const html = await collect(exportRecords(hostileSource, INFO, "html"));
		expect(html).toContain("[image: image/png, 0 bytes, not shown]");
		expect(html).toContain('<img alt="image" src="data:image/png;base64,aGVsbG8=">');
	});
});

describe("HTML page", () => {
	it("is self-contained: no script, no external asset, a CSP that forbids loading anything", async () => {
		const html = await collect(exportRecords(source, INFO, "html"));
		expect(html).toMatch(/^<!doctype html>/);
		expect(html).toContain(`content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"`);
		expect(html).not.toMatch(/<script|<link|src="(?!data:)|url\(/i);
		expect(html).toContain('<img alt="image" src="data:image/png;base64,aGVsbG8=">');
		expect(html.match(/<section/g)?.length).toBe(html.match(/<\/section>/g)?.length);
	});

	it("escapes everything from the session", async () => {
		const html = await collect(exportRecords(source, INFO, "html"));
		expect(html).toContain("<title>Demo &#60;b&#62;session&#60;/b&#62;</title>");
		expect(html).toContain("Run &lt;script&gt;alert(1)&lt;/script&gt; &amp; tell me");
		expect(html).not.toContain("<script>alert");
		expect(html).not.toContain('onload="alert(1)');
		expect(html).toContain("image/svg+xml&#34; onload=&#34;alert(1), 0 bytes, not shown");
		expect(html).not.toContain("Abandoned answer");
	});

	it("renders message text and summaries as Markdown, code highlighted, as the web page does", async () => {
		const markdownSource = recordsFrom(
			storedRecords([
				{ recordType: "message", role: "user", content: text("Is **this** bold?") },
				{ recordType: "message", role: "assistant", content: text("Yes:\n\n```js\nconst a = 1;\n```") },
				{
					recordType: "compaction",
					summary: "## Goal\n- ship it",
					firstKeptSeq: 2,
					tokensBefore: 9,
					readFiles: [],
					modifiedFiles: [],
				},
			]),
		);
		const html = await collect(exportRecords(markdownSource, INFO, "html"));
		expect(html).toContain('<div class="markdown"><p>Is <strong>this</strong> bold?</p>');
		expect(html).toContain('<code class="hljs language-js"><span class="hljs-keyword">const</span>');
		expect(html).toContain("<h2>Goal</h2>\n<ul>\n<li>ship it</li>");
		expect(html).toContain(".hljs-keyword,");
		expect(html).not.toContain("**this**");
	});
});

describe("reasoning kept only encrypted", () => {
	it("shows as hidden reasoning in md and html, never as an empty Thinking block", async () => {
		const inputs: RecordInput[] = [
			{ recordType: "message", role: "user", content: text("Q") },
			{
				recordType: "message",
				role: "assistant",
				content: [{ type: "thinking", thinking: "", thinkingSignature: "gAAAAB-encrypted" }, ...text("A")],
			},
		];
		const md = await collect(exportRecords(recordsFrom(storedRecords(inputs)), INFO, "md"));
		expect(md).not.toMatch(/\*Thinking:\*/);
		expect(md).toMatch(/redacted thinking/);
		const html = await collect(exportRecords(recordsFrom(storedRecords(inputs)), INFO, "html"));
		expect(html).not.toMatch(/<summary>Thinking<\/summary>/);
	});
});
