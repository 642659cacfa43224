import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONTEXT, PathFacts, TOOL_RESULT } from "./path-facts.js";

interface Fact {
	seq: number;
	tokens: number;
	flags: number;
	call: number;
}

// Pushes and drops of several thousand records, so that the columns span several chunks and
// drops free whole chunks and leave part of one.
const opArb = fc.oneof(
	{ weight: 5, arbitrary: fc.record({ push: fc.integer({ min: 1, max: 3000 }) }) },
	{ weight: 1, arbitrary: fc.record({ drop: fc.double({ min: 0, max: 1, noNaN: true }) }) },
);

describe("PathFacts", () => {
	it("reads back what was pushed, by path index, across chunks and after drops", () => {
		fc.assert(
			fc.property(fc.array(opArb, { minLength: 1, maxLength: 12 }), fc.integer(), (ops, salt) => {
				const facts = new PathFacts();
				const model: Fact[] = [];
				let base = 0;
				let seq = 0;
				for (const op of ops) {
					if ("push" in op) {
						for (let n = 0; n < op.push; n++) {
							const i = model.length;
							// Seqs rise with gaps (side records are not on a path).
							seq += 1 + ((i + salt) & 1);
							const fact = { seq, tokens: (i * 7 + salt) & 1023, flags: (i ^ salt) & 31, call: ((i * 13) % 5) - 1 };
							model.push(fact);
							facts.push(fact.seq, fact.tokens, fact.flags, fact.call);
						}
					} else {
						const to = base + Math.floor(op.drop * (model.length - base));
						facts.dropBefore(to);
						base = Math.max(base, to);
					}
				}
				expect(facts.base).toBe(base);
				expect(facts.end).toBe(model.length);
				for (let i = base; i < model.length; i++) {
					const fact = model[i] as Fact;
					expect([facts.seq(i), facts.token(i), facts.flag(i), facts.call(i)]).toEqual([
						fact.seq,
						fact.tokens,
						fact.flags,
						fact.call,
					]);
				}
				const from = base + Math.floor((model.length - base) / 3);
				const callsFrom = Math.floor(model.length / 2);
				let count = 0;
				let tokens = 0;
				for (const fact of model.slice(from)) {
					if ((fact.flags & CONTEXT) === 0) continue;
					if ((fact.flags & TOOL_RESULT) !== 0 && fact.call < callsFrom) continue;
					count++;
					tokens += fact.tokens;
				}
				expect(facts.contextMessages(from, model.length, callsFrom)).toEqual({ count, tokens });
				const target = (model[Math.floor((base + model.length) / 2)] as Fact | undefined)?.seq ?? 0;
				const first = model.findIndex((fact, i) => i >= base && fact.seq >= target);
				expect(facts.firstAtOrAfter(target, base, model.length)).toBe(first < 0 ? model.length : first);
			}),
			{ numRuns: 40 },
		);
	});
});
