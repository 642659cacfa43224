/** What a request got back. */
export interface HttpAnswer {
	status: number;
	text: string;
	/** The error code of a JSON error body, if there is one. */
	code: string | undefined;
}

export async function request(
	base: string,
	method: string,
	path: string,
	options: { body?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
	const response = await fetch(`${base}${path}`, {
		method,
		headers: options.headers ?? (options.body === undefined ? {} : { "content-type": "application/json" }),
		body: options.body,
		signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
	});
	const text = await response.text();
	let code: string | undefined;
	try {
		code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
	} catch {
		code = undefined;
	}
	return { status: response.status, text, code };
}

export async function json<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
	const answer = await request(base, method, path, body === undefined ? {} : { body: JSON.stringify(body) });
	if (answer.status >= 300)
		throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
	return JSON.parse(answer.text) as T;
}
