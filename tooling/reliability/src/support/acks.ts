/** An acknowledged record, as a child printed it: `ack <session index> <seq> <payload number>`. */
export interface Ack {
	session: number;
	seq: number;
	n: number;
}

export function acksOf(lines: readonly string[]): Ack[] {
	const acks: Ack[] = [];
	for (const line of lines) {
		if (!line.startsWith("ack ")) continue;
		const [, session, seq, n] = line.split(" ");
		acks.push({ session: Number(session), seq: Number(seq), n: Number(n) });
	}
	return acks;
}

/** The `error <code> <message>` lines of a child. */
export function errorsOf(lines: readonly string[]): { code: string; message: string }[] {
	return lines
		.filter((line) => line.startsWith("error "))
		.map((line) => {
			const rest = line.slice("error ".length);
			const space = rest.indexOf(" ");
			return { code: rest.slice(0, space), message: JSON.parse(rest.slice(space + 1)) as string };
		});
}
