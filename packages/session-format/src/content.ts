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

export interface TextBlock extends z.infer<typeof textBlockSchema> {}
export interface ThinkingBlock extends z.infer<typeof thinkingBlockSchema> {}
export interface ToolCallBlock extends z.infer<typeof toolCallBlockSchema> {}
export interface ImageBlock extends z.infer<typeof imageBlockSchema> {}
/** A block of a message's content (a named union, so that references show its name). */
export type ContentBlock = TextBlock | ThinkingBlock | ToolCallBlock | ImageBlock;
