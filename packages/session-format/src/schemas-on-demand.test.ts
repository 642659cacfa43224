import { describe, expect, it } from "vitest";
import { parseRecordLine } from "./parse.js";
import { checkMetadataSchema } from "./schema-checks.js";
import { loadSchemaChecks, tryCheckMetadata, tryParseRecordLine } from "./schemas-on-demand.js";

const HEAD = '"schemaVersion":1,"seq":3,"timestamp":"2025-02-11T10:00:00Z"';

/** Lines of every kind: those the hand check decides, and those only the schemas can. */
const HAND_CHECKED = [
	`{"recordType":"message",${HEAD},"role":"user","content":[{"type":"text","text":"hi"}]}`,
	`{"recordType":"model_change",${HEAD},"provider":"anthropic","modelId":"claude"}`,
	'{"recordType":"message","schemaVersion":1,"seq":0}',
	"not json",
	`{"recordType":"future_kind",${HEAD}}`,
	`{"recordType":"message","schemaVersion":9,"seq":3,"timestamp":"2025-02-11T10:00:00Z"}`,
];
const NEEDS_SCHEMAS = [
	`{"recordType":"label",${HEAD},"targetSeq":1,"label":"start"}`,
	`{"recordType":"message",${HEAD},"role":"user","content":[{"type":"text","text":7}]}`,
	`{"recordType":"message",${HEAD},"role":"boss","content":[]}`,
	`{"recordType":"branch_summary",${HEAD},"fromSeq":2,"summary":"left"}`,
];

/** A metadata.json the hand check does not take (defaults left out): only the schema fills them in. */
const SPARSE_METADATA = { id: "01JCXJ8R5M0000000000000000", createdAt: "2025-02-11T10:00:00Z", lastMessageAt: "x" };

// One test, in order: what the module holds before and after loading is the point.
describe("schemas on demand", () => {
	it("answers what the hand check decides without zod, the rest once loaded, as parseRecordLine does", async () => {
		for (const line of HAND_CHECKED) expect(tryParseRecordLine(line)).toEqual(parseRecordLine(line));
		for (const line of NEEDS_SCHEMAS) expect(tryParseRecordLine(line)).toBeUndefined();
		expect(tryCheckMetadata(SPARSE_METADATA)).toBeUndefined();

		await loadSchemaChecks();

		for (const line of [...HAND_CHECKED, ...NEEDS_SCHEMAS]) {
			expect(tryParseRecordLine(line)).toEqual(parseRecordLine(line));
		}
		const checked = tryCheckMetadata(SPARSE_METADATA);
		expect(checked).toEqual(checkMetadataSchema(SPARSE_METADATA));
		expect(checked).toMatchObject({ ok: true, metadata: { model: "", messageCount: 0, source: "interactive" } });
		expect(tryCheckMetadata({ id: 7 })).toMatchObject({ ok: false, reason: expect.stringContaining("id") });
	});
});
