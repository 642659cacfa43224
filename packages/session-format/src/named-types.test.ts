// The record, content and metadata types are named (interfaces, and unions of them), so that the
// API reference and editors show their names instead of spelling out the inferred zod types. They
// must stay exactly what the schemas infer: a field or a record type added to one and not the
// other fails the typecheck of this file.
import { describe, expectTypeOf, it } from "vitest";
import type * as z from "zod";
import type { contentBlockSchema } from "./content.js";
import type { ContentBlock, SessionMetadata, SessionRecord } from "./index.js";
import type { sessionMetadataSchema } from "./metadata.js";
import type { sessionRecordSchema } from "./records.js";

describe("named types", () => {
	it("are what the schemas infer", () => {
		expectTypeOf<SessionRecord>().toEqualTypeOf<z.infer<typeof sessionRecordSchema>>();
		expectTypeOf<ContentBlock>().toEqualTypeOf<z.infer<typeof contentBlockSchema>>();
		expectTypeOf<SessionMetadata>().toEqualTypeOf<z.infer<typeof sessionMetadataSchema>>();
	});
});
