export { AGENT_MESSAGE_TYPE } from "./agent-messages.js";
export { type PersistAgentOptions, type PersistedAgent, persistAgent } from "./persist-agent.js";
