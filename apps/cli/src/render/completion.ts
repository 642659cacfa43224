/** What a completion script completes: every command with its options, and which take session ids. */
export interface CompletionSpec {
	program: string;
	globalOptions: string[];
	commands: Array<{ name: string; description: string; options: string[]; takesSession: boolean }>;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A bash completion script (`source <(agent-sessions completion bash)`). */
export function bashCompletion(spec: CompletionSpec): string {
	const fn = `_${spec.program.replace(/[^A-Za-z0-9]/g, "_")}`;
	const cases = spec.commands
		.map((command) => `\t\t${command.name}) opts=${quote(command.options.join(" "))} ;;`)
		.join("\n");
	const withIds = spec.commands.filter((command) => command.takesSession).map((command) => command.name);
	return `# bash completion for ${spec.program}
${fn}() {
	local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="" i opts=""
	for ((i = 1; i < COMP_CWORD; i++)); do
		case "\${COMP_WORDS[i]}" in
		--home) ((i++)) ;;
		-*) ;;
		*) cmd="\${COMP_WORDS[i]}"; break ;;
		esac
	done
	if [[ -z "$cmd" ]]; then
		COMPREPLY=($(compgen -W ${quote([...spec.commands.map((command) => command.name), ...spec.globalOptions].join(" "))} -- "$cur"))
		return
	fi
	case "$cmd" in
${cases}
	esac
	if [[ "$cur" == -* ]]; then
		COMPREPLY=($(compgen -W "$opts ${spec.globalOptions.join(" ")}" -- "$cur"))
		return
	fi
	case "$cmd" in
	${withIds.join("|")})
		COMPREPLY=($(compgen -W "$(${spec.program} completion --ids 2>/dev/null | cut -f1)" -- "$cur")) ;;
	esac
}
complete -o default -F ${fn} ${spec.program}
`;
}

/** A zsh completion script: the bash one through zsh's bashcompinit. */
export function zshCompletion(spec: CompletionSpec): string {
	return `# zsh completion for ${spec.program}
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(spec)}`;
}

/** A fish completion script (`agent-sessions completion fish | source`). */
export function fishCompletion(spec: CompletionSpec): string {
	const p = spec.program;
	const lines = [`# fish completion for ${p}`, `complete -c ${p} -f`];
	for (const command of spec.commands) {
		lines.push(`complete -c ${p} -n __fish_use_subcommand -a ${command.name} -d ${quote(command.description)}`);
		for (const option of command.options.filter((option) => option.startsWith("--"))) {
			lines.push(`complete -c ${p} -n ${quote(`__fish_seen_subcommand_from ${command.name}`)} -l ${option.slice(2)}`);
		}
	}
	for (const option of spec.globalOptions.filter((option) => option.startsWith("--"))) {
		lines.push(`complete -c ${p} -l ${option.slice(2)}`);
	}
	const withIds = spec.commands.filter((command) => command.takesSession).map((command) => command.name);
	lines.push(
		`complete -c ${p} -n ${quote(`__fish_seen_subcommand_from ${withIds.join(" ")}`)} -a ${quote(`(${p} completion --ids 2>/dev/null)`)}`,
	);
	return `${lines.join("\n")}\n`;
}
