export { type AppOptions, createApp } from "./app.js";
export {
	attachEventSockets,
	type EventSocketOptions,
	type EventSockets,
	SESSION_DELETED_CLOSE,
} from "./event-sockets.js";
export { type ErrorBody, HttpError, toHttpError } from "./http-error.js";
export { RunningTurns } from "./running-turns.js";
export { type JobDescription, type JobRunReport, JobScheduler } from "./scheduler.js";
export {
	checkToken,
	EVENTS_PROTOCOL,
	isLoopbackHost,
	MIN_TOKEN_LENGTH,
	resolveToken,
	TOKEN_ENV,
	TOKEN_PROTOCOL_PREFIX,
} from "./security.js";
export { SendBudget, type SendBudgetOptions, SLOW_READER_CLOSE } from "./send-budget.js";
export { DEFAULT_HOST, DEFAULT_PORT, type RunningServer, type ServerOptions, startServer } from "./server.js";
