import type { Agent, Model, ModelRequest, ModelResponse, StreamEvent } from "@openai/agents-core";

export declare class FakeModel implements Model {
	inputs: unknown[];
	calls: number;
	constructor(options?: { beforeAnswer?: (input: unknown) => Promise<void> | void });
	getResponse(request: ModelRequest): Promise<ModelResponse>;
	getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent>;
}

export declare function weatherAgent(model: Model): Agent;

export declare const TOOL_ROUND: string[];

/** The weather tool's options (name, description, parameters, strict, execute), for variants of it. */
export declare const weatherToolOptions: Record<string, unknown>;
