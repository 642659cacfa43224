import type { Hono } from "hono";
import type { RouteDeps } from "../route-deps.js";

/**
 * Scripts, styles, API calls and WebSockets go to this server only (`'self'` covers ws: and wss:
 * to the page's own host); nothing else is loaded or framed.
 */
const CONTENT_SECURITY_POLICY =
	"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** The web page: index.html at "/" and its built assets. */
export function registerWebPageRoutes(app: Hono, { assets }: RouteDeps): void {
	app.get("/", (c) => serve(c.req.path));
	app.get("/assets/:name", (c) => serve(c.req.path));

	function serve(urlPath: string): Response {
		const asset = assets.files.get(urlPath);
		if (!asset) {
			const message =
				urlPath === "/"
					? `The web page is not built (no index.html in ${assets.dir}); run \`pnpm build\` in apps/server.`
					: "Not found";
			return new Response(message, {
				status: urlPath === "/" ? 503 : 404,
				headers: { "Content-Type": "text/plain; charset=utf-8" },
			});
		}
		return new Response(asset.body, {
			headers: {
				"Content-Type": asset.contentType,
				"Cache-Control": "no-cache",
				"Content-Security-Policy": CONTENT_SECURITY_POLICY,
				"X-Content-Type-Options": "nosniff",
				"Referrer-Policy": "no-referrer",
			},
		});
	}
}
