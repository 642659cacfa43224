export { CliContext } from "./cli-context.js";
export { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "./errors.js";
export { main } from "./main.js";
export { buildProgram } from "./program.js";
