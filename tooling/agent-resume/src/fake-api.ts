import http from "node:http";
import type { AddressInfo } from "node:net";

/** A local stand-in for a model API: what the tool sent it, and where else the tool tried to go. */
export interface FakeApi<Request> {
	/** The base URL to point the tool at (`http://127.0.0.1:<port>`). */
	url: string;
	/** Every model request the tool sent, parsed, in order. */
	requests: Request[];
	/**
	 * Every request the tool tried to send anywhere else through the proxy variables pointed here
	 * (`CONNECT host:443`, or an absolute URL): refused, and kept so a check can show them.
	 */
	outbound: string[];
	/** `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY` that route every other request of the tool here, to be refused. */
	proxyEnv: NodeJS.ProcessEnv;
	close(): Promise<void>;
}

/** Answers one HTTP request on a model route; false when the route is not one of the API's. */
export type Route = (request: http.IncomingMessage, body: string, response: http.ServerResponse) => boolean;

/**
 * A server on 127.0.0.1 that answers the API's routes, 404s any other path, and refuses (and notes)
 * anything sent to it as a proxy, so no request of the tool leaves the machine.
 */
export async function startFakeApi<Request>(
	route: (requests: Request[]) => Route,
	setUp?: (server: http.Server, requests: Request[]) => void,
): Promise<FakeApi<Request>> {
	const requests: Request[] = [];
	const outbound: string[] = [];
	const answer = route(requests);
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => {
			if (/^[a-z]+:\/\//i.test(request.url ?? "")) {
				outbound.push(`${request.method} ${request.url}`);
				response.writeHead(403).end();
				return;
			}
			if (answer(request, Buffer.concat(chunks).toString("utf8"), response)) return;
			response.writeHead(404, { "content-type": "application/json" });
			response.end(JSON.stringify({ error: { type: "not_found_error", message: `no route ${request.url}` } }));
		});
	});
	server.on("connect", (request, socket) => {
		outbound.push(`CONNECT ${request.url}`);
		socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
	});
	setUp?.(server, requests);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		requests,
		outbound,
		proxyEnv: {
			HTTPS_PROXY: url,
			HTTP_PROXY: url,
			https_proxy: url,
			http_proxy: url,
			NO_PROXY: "127.0.0.1",
			no_proxy: "127.0.0.1",
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** Writes one server-sent event. */
export function sendEvent(response: http.ServerResponse, event: { type: string } & Record<string, unknown>): void {
	response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

export function parseJson(body: string): unknown {
	try {
		return JSON.parse(body);
	} catch {
		return undefined;
	}
}
