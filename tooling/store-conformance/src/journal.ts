import { describe, expect, it } from "vitest";
import { expectCode, type SuiteContext, user } from "./fixtures.js";

/** The optional turn journal (noteAcceptedTurn, acceptedTurns, forgetAcceptedTurn): runs when a store has it. */
export function describeJournal(context: SuiteContext): void {
	describe("the turn journal (accepted means recorded)", () => {
		it("keeps an accepted turn, owned by this process and so not lost, until it is forgotten; a delete takes it along", async () => {
			const { store } = context;
			if (!store.noteAcceptedTurn || !store.acceptedTurns || !store.forgetAcceptedTurn) return;
			const { id } = await store.create();
			await store.append(id, [user("before")]);
			const first = {
				turnId: "t-1",
				acceptedAt: "2025-02-11T10:00:00.000Z",
				content: [{ type: "text" as const, text: "a\u0000😀" }],
			};
			const second = {
				turnId: "t-2",
				acceptedAt: "2025-02-11T10:00:01.000Z",
				content: [{ type: "text" as const, text: "b" }],
			};
			await store.noteAcceptedTurn(id, second);
			await store.noteAcceptedTurn(id, first);
			expect(await store.acceptedTurns(id)).toEqual([
				{ ...first, lost: false },
				{ ...second, lost: false },
			]);
			await store.forgetAcceptedTurn(id, "t-1");
			await store.forgetAcceptedTurn(id, "t-1");
			expect((await store.acceptedTurns(id)).map((turn) => turn.turnId)).toEqual(["t-2"]);
			await store.delete(id);
			expect(await store.acceptedTurns(id)).toEqual([]);
		});

		it("refuses a turn of no session, and a turn id that could be a path", async () => {
			const { store } = context;
			if (!store.noteAcceptedTurn) return;
			const turn = { turnId: "t", acceptedAt: "2025-02-11T10:00:00.000Z", content: [] };
			await expectCode(store.noteAcceptedTurn("01ARZ3NDEKTSV4RRFFQ69G5FAV", turn), "SESSION_NOT_FOUND");
			const { id } = await store.create();
			await expectCode(store.noteAcceptedTurn(id, { ...turn, turnId: "../x" }), "INVALID_ARGUMENT");
		});
	});
}
