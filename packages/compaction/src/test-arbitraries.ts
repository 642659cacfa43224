import fc from "fast-check";
import { type PathBuilder, usage, words } from "./test-fixtures.js";

/** One step of a generated session. */
export type Step =
	| { kind: "user"; tokens: number }
	| { kind: "custom"; tokens: number }
	| { kind: "model_change" }
	| {
			kind: "assistant";
			tokens: number;
			/** Sizes of the outputs of its tool calls (0..3 calls). */
			calls: number[];
			/** Answer the calls in reverse order (parallel tools finishing out of order). */
			reversed: boolean;
			/** A user message that arrives between the results (steering). */
			steerBetween: boolean;
			/** The last call never gets a result (an aborted turn). */
			dropLast: boolean;
			reportedUsage: number;
	  };

const size = fc.integer({ min: 0, max: 400 });

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant("user" as const), tokens: size }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant("custom" as const), tokens: size }) },
	{ weight: 1, arbitrary: fc.constant({ kind: "model_change" as const }) },
	{
		weight: 6,
		arbitrary: fc.record({
			kind: fc.constant("assistant" as const),
			tokens: size,
			calls: fc.array(size, { maxLength: 3 }),
			reversed: fc.boolean(),
			steerBetween: fc.boolean(),
			dropLast: fc.boolean(),
			reportedUsage: fc.integer({ min: 0, max: 300_000 }),
		}),
	},
);

export const stepsArb = fc.array(stepArb, { minLength: 1, maxLength: 40 });

const FILES = ["a.ts", "b.ts", "c.ts", "d.ts"];

/** Appends generated steps to a builder. */
export function applySteps(b: PathBuilder, steps: readonly Step[]): void {
	for (const step of steps) {
		if (step.kind === "user") b.user(`u${words(step.tokens)}`);
		else if (step.kind === "custom") {
			b.append({
				recordType: "custom_message",
				customType: "note",
				content: [{ type: "text", text: words(step.tokens) }],
				display: true,
			});
		} else if (step.kind === "model_change") {
			// A model named after its place: the settings in force depend on which change came last.
			b.append({ recordType: "model_change", provider: "p", modelId: `m${b.lastSeq + 1}` });
		} else {
			const calls = step.calls.map((_, i) =>
				b.call(i % 2 === 0 ? "read" : "edit", { path: FILES[(b.lastSeq + i) % FILES.length] as string }),
			);
			b.assistant([{ type: "text", text: words(step.tokens) }, ...calls], {
				usage: usage(step.reportedUsage),
				stopReason: calls.length > 0 ? "toolUse" : "stop",
			});
			const answered = step.dropLast ? calls.slice(0, -1) : calls;
			const order = step.reversed ? [...answered].reverse() : answered;
			order.forEach((call, i) => {
				if (step.steerBetween && i === 1) b.user("steer");
				b.result(call, words(step.calls[calls.indexOf(call)] ?? 0));
			});
		}
	}
}
