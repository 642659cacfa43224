import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A reverse proxy as nginx or Caddy is set up in front of the server: it passes every path as it
 * is (the server's base_path strips the prefix), rewrites Host to the upstream's, and says what the
 * client sent in X-Forwarded-Host/-Proto, appending the client's address to X-Forwarded-For.
 * WebSocket upgrades go through too.
 */
export async function startReverseProxy(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
	const target = new URL(upstream);
	const headersFor = (request: http.IncomingMessage) => {
		const headers: http.OutgoingHttpHeaders = { ...request.headers, host: target.host };
		const before = request.headers["x-forwarded-for"];
		headers["x-forwarded-for"] = [before, request.socket.remoteAddress].filter(Boolean).join(", ");
		headers["x-forwarded-host"] = request.headers.host;
		headers["x-forwarded-proto"] = "http";
		return headers;
	};
	const options = (request: http.IncomingMessage): http.RequestOptions => ({
		host: target.hostname,
		port: target.port,
		method: request.method,
		path: request.url,
		headers: headersFor(request),
	});
	const server = http.createServer((request, response) => {
		const forwarded = http.request(options(request), (answer) => {
			response.writeHead(answer.statusCode ?? 502, answer.headers);
			answer.pipe(response);
		});
		forwarded.on("error", () => response.destroy());
		request.pipe(forwarded);
	});
	server.on("upgrade", (request, socket, head) => {
		const forwarded = http.request(options(request));
		const statusLine = (answer: http.IncomingMessage) => {
			const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`];
			for (let i = 0; i < answer.rawHeaders.length; i += 2)
				lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
			return `${lines.join("\r\n")}\r\n\r\n`;
		};
		forwarded.on("upgrade", (answer, upstreamSocket, upstreamHead) => {
			socket.write(statusLine(answer));
			if (upstreamHead.length > 0) socket.write(upstreamHead);
			if (head.length > 0) upstreamSocket.write(head);
			upstreamSocket.pipe(socket).pipe(upstreamSocket);
			upstreamSocket.on("error", () => socket.destroy());
			socket.on("error", () => upstreamSocket.destroy());
		});
		forwarded.on("response", (answer) => {
			socket.write(statusLine(answer));
			answer.pipe(socket);
		});
		forwarded.on("error", () => socket.destroy());
		socket.on("error", () => forwarded.destroy());
		forwarded.end();
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		// "localhost", not the upstream's 127.0.0.1: the Host the browser sends differs from the one the server gets.
		url: `http://localhost:${port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
