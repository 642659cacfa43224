/** Test helper: an async iterable of chunks joined into one string. */
export async function collect(chunks: AsyncIterable<string>): Promise<string> {
	let out = "";
	for await (const chunk of chunks) out += chunk;
	return out;
}
