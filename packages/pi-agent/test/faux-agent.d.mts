import type { Agent, AgentOptions } from "@mariozechner/pi-agent-core";
import type { FauxProviderRegistration, Message } from "@mariozechner/pi-ai";

export declare const faux: FauxProviderRegistration;
export declare function weatherAgent(options?: AgentOptions): Agent;
export declare function answerWeather(city: string): void;
export declare function answerEcho(seen?: Message[][]): void;
