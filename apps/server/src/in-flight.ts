import type http from "node:http";

/**
 * The HTTP requests being answered, so that a shutdown writes every response it owes in full
 * before it closes their connections; and, once draining, `Connection: close` on every response,
 * so keep-alive clients (a load balancer's pool) reconnect elsewhere instead of reusing this one.
 */
export class InFlight {
	private readonly responses = new Set<http.ServerResponse>();
	private draining = false;
	private waiters: Array<() => void> = [];

	get size(): number {
		return this.responses.size;
	}

	/** Wraps the server's request listener. */
	listener(inner: http.RequestListener): http.RequestListener {
		return (request, response) => {
			this.responses.add(response);
			if (this.draining) response.setHeader("Connection", "close");
			response.once("close", () => {
				this.responses.delete(response);
				if (this.responses.size === 0) for (const resolve of this.waiters.splice(0)) resolve();
			});
			inner(request, response);
		};
	}

	drain(): void {
		this.draining = true;
		// Responses still being worked on (a ?wait=1 send) close their connection once written.
		for (const response of this.responses) if (!response.headersSent) response.setHeader("Connection", "close");
	}

	/** Resolves true once no request is being answered, or false after `ms`. */
	idle(ms: number): Promise<boolean> {
		if (this.responses.size === 0) return Promise.resolve(true);
		return new Promise((resolve) => {
			const done = () => {
				clearTimeout(timer);
				resolve(true);
			};
			const timer = setTimeout(() => {
				this.waiters = this.waiters.filter((waiter) => waiter !== done);
				resolve(false);
			}, ms);
			this.waiters.push(done);
		});
	}
}
