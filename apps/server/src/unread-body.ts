import type { MiddlewareHandler } from "hono";

/**
 * Closes the connection after answering a request whose body was left unread: a 404 or 405 for a
 * route that takes no body, a 400 answered before the body was parsed, a 413, a DELETE sent with
 * a body. Once the body limit has turned such a body into a stream nobody reads, @hono/node-server
 * cannot drain it and destroys the socket 500 ms later; a keep-alive client that had already sent
 * its next request on that socket saw it fail ("other side closed"). `Connection: close` tells the
 * client not to reuse the socket.
 */
export const closeAfterUnreadBody: MiddlewareHandler = async (c, next) => {
	await next();
	const request = c.req.raw;
	if (request.body === null) return;
	if (request.bodyUsed && c.res.status < 400) return;
	c.res.headers.set("Connection", "close");
};
