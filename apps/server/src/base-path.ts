import type http from "node:http";

/**
 * A request's URL (path and query) without the base path the server is served under, or
 * undefined when it is not under it. "/agents" serves "/agents/..." as "/..."; "/agents" itself
 * is "" (the caller redirects it to "/agents/", so that the page's relative URLs resolve under it).
 */
export function stripBasePath(url: string, basePath: string): string | undefined {
	if (basePath === "") return url;
	if (!url.startsWith(basePath)) return undefined;
	const rest = url.slice(basePath.length);
	if (rest === "" || rest.startsWith("?")) return "";
	return rest.startsWith("/") ? rest : undefined;
}

/**
 * The request listener under a base path: "/base/..." is served as "/...", "/base" is redirected to
 * "/base/" (the page's URLs are relative to it), anything else is a 404.
 */
export function underBasePath(basePath: string, listener: http.RequestListener): http.RequestListener {
	if (basePath === "") return listener;
	return (request, response) => {
		const inner = stripBasePath(request.url ?? "/", basePath);
		if (inner === "") {
			const query = (request.url ?? "").slice(basePath.length);
			response.writeHead(308, { Location: `${basePath}/${query}`, "Content-Length": "0" }).end();
			return;
		}
		if (inner === undefined) {
			const body = JSON.stringify({
				error: { code: "NOT_FOUND", message: `agent-sessions-server: this server is served under ${basePath}/` },
			});
			response
				.writeHead(404, {
					"Content-Type": "application/json; charset=utf-8",
					"Content-Length": Buffer.byteLength(body),
				})
				.end(body);
			return;
		}
		request.url = inner;
		listener(request, response);
	};
}
