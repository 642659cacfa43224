import type { SessionStore } from "@agent/session-format";
import { afterEach, beforeEach, describe } from "vitest";
import { describeAppend } from "./append.js";
import { describeCreate } from "./create.js";
import type { MakeStore, StoreHandle, SuiteContext } from "./fixtures.js";
import { describeIds } from "./ids.js";
import { describeJournal } from "./journal.js";
import { describeLease } from "./lease.js";
import { describeLifecycle } from "./lifecycle.js";
import { describeList } from "./list.js";
import { describeLogIsTruth } from "./log-is-truth.js";
import { describeOpen } from "./open.js";
import { describeRead } from "./read.js";
import { describeSearch } from "./search.js";
import { describeTree } from "./tree.js";
import { describeVerify } from "./verify.js";

/**
 * Declares the SessionStore conformance suite (vitest describe/it blocks) for one backend. Each
 * test gets a fresh, empty store from `makeStore` and throws it away after. The suite uses only
 * the SessionStore interface — no paths, no SQL — so every backend runs it unchanged.
 */
export function runStoreConformance(name: string, makeStore: MakeStore): void {
	describe(`SessionStore conformance: ${name}`, () => {
		let handle: StoreHandle | undefined;
		const context: SuiteContext = {
			get store(): SessionStore {
				if (!handle) throw new Error("the conformance suite's store is used outside a test");
				return handle.store;
			},
		};
		const current = (): StoreHandle => {
			if (!handle) throw new Error("the conformance suite's store is used outside a test");
			return handle;
		};
		beforeEach(async () => {
			handle = await makeStore();
		});
		afterEach(async () => {
			await handle?.cleanup();
			handle = undefined;
		});
		describeIds(context);
		describeCreate(context);
		describeAppend(context);
		describeRead(context);
		describeOpen(context);
		describeList(context);
		describeSearch(context);
		describeTree(context);
		describeLifecycle(context);
		describeLease(context);
		describeVerify(context, current);
		describeJournal(context);
		describeLogIsTruth(context, current);
	});
}
