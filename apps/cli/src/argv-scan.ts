import { COMMANDS } from "./commands/registry.js";

/** What a command line says before commander parses it: the command named and the --home given. */
export interface ScannedArgs {
	/** The command named (`help show` names "show"), if it exists. */
	command?: string;
	/** Where the command's name is in the arguments. */
	commandIndex: number;
	home?: string;
}

/**
 * Reads the command's name and --home from the arguments (argv without node and the script),
 * skipping the global options: `--home H show ID` names "show" at index 2.
 */
export function scanArgs(args: readonly string[]): ScannedArgs {
	let home: string | undefined;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i] as string;
		if (arg === "--") break;
		if (arg === "--home") {
			home = args[i + 1];
			i++;
			continue;
		}
		if (arg.startsWith("--home=")) {
			home = arg.slice("--home=".length);
			continue;
		}
		if (arg.startsWith("-")) continue;
		if (arg === "help") {
			const rest = scanArgs(args.slice(i + 1));
			return { ...rest, commandIndex: rest.commandIndex + i + 1, ...(home !== undefined ? { home } : {}) };
		}
		if (!Object.hasOwn(COMMANDS, arg)) return { commandIndex: i, ...(home !== undefined ? { home } : {}) };
		return { command: arg, commandIndex: i, ...(home !== undefined ? { home } : {}) };
	}
	return { commandIndex: -1, ...(home !== undefined ? { home } : {}) };
}
