import type { MiddlewareHandler } from "hono";

/** An unread body larger than this is not drained: the connection is given up instead. */
const DRAIN_LIMIT_BYTES = 64 << 20;

/**
 * Reads and discards a request body that nothing read: a 404 or 405 for a route that takes no
 * body, a 400 answered before the body was parsed, a 413 refused on its Content-Length, a DELETE
 * sent with a body. Once the body is a web stream nobody reads, @hono/node-server cannot drain it
 * and destroys the socket 500 ms after the answer: a keep-alive client that had already sent its
 * next request on that socket saw it fail ("other side closed"), and a client still uploading
 * never read the answer. Draining in the background keeps the connection and lets the client
 * finish its upload and read the answer. A 413 refused mid-stream (a chunked body) cannot be
 * drained any more: that connection is closed after the answer.
 */
export const drainUnreadBody: MiddlewareHandler = async (c, next) => {
	await next();
	const request = c.req.raw;
	const body = request.body;
	if (body === null) return;
	if (!request.bodyUsed && !body.locked) {
		drainInBackground(body);
		return;
	}
	if (c.res.status === 413) c.res.headers.set("Connection", "close");
};

function drainInBackground(body: ReadableStream<Uint8Array>): void {
	const reader = body.getReader();
	let bytes = 0;
	const pump = async (): Promise<void> => {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) return;
			bytes += value.byteLength;
			if (bytes > DRAIN_LIMIT_BYTES) {
				await reader.cancel();
				return;
			}
		}
	};
	pump().catch(() => {
		// The client went away: nothing left to drain.
	});
}
