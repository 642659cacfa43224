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
