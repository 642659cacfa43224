import * as z from "zod";
import { lazySchema } from "./lazy-schema.js";

export const textBlockSchema = lazySchema(() =>
	z.object({
		type: z.literal("text"),
		text: z.string(),
		textSignature: z.string().optional(),
	}),
);

export const thinkingBlockSchema = lazySchema(() =>
	z.object({
		type: z.literal("thinking"),
		thinking: z.string(),
		thinkingSignature: z.string().optional(),
		redacted: z.boolean().optional(),
	}),
);

/**
 * A tool call's arguments: any JSON object, copied key for key. A key named "__proto__" is data
 * like any other (a model may well produce one): it stays an own key and never becomes a prototype.
 */
export const toolArgumentsSchema = lazySchema(() =>
	z
		.custom<Record<string, unknown>>(
			(value) =>
				typeof value === "object" &&
				value !== null &&
				!Array.isArray(value) &&
				Object.getPrototypeOf(value) === Object.prototype,
			{ message: 'arguments must be a JSON object such as {"path":"a.txt"}' },
		)
		.transform((value) => ({ ...value })),
);

export const toolCallBlockSchema = lazySchema(() =>
	z.object({
		type: z.literal("toolCall"),
		id: z.string().min(1),
		name: z.string().min(1),
		arguments: toolArgumentsSchema,
		thoughtSignature: z.string().optional(),
	}),
);

export const imageBlockSchema = lazySchema(() =>
	z.object({
		type: z.literal("image"),
		data: z.string(),
		mimeType: z.string().min(1),
	}),
);

export const contentBlockSchema = lazySchema(() =>
	z.discriminatedUnion("type", [textBlockSchema, thinkingBlockSchema, toolCallBlockSchema, imageBlockSchema]),
);

/** `content` is always an array of blocks, never a bare string (S7.12). */
export const contentSchema = lazySchema(() => z.array(contentBlockSchema));

export type TextBlock = z.infer<typeof textBlockSchema>;
export type ThinkingBlock = z.infer<typeof thinkingBlockSchema>;
export type ToolCallBlock = z.infer<typeof toolCallBlockSchema>;
export type ImageBlock = z.infer<typeof imageBlockSchema>;
export type ContentBlock = z.infer<typeof contentBlockSchema>;
