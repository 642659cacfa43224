import type { IncomingHttpHeaders } from "node:http";

/** Where a request came from and what it was addressed to, as the client (not a proxy) sent it. */
export interface ClientView {
	/** The client's address: the peer's, or behind trusted proxies the forwarded one. */
	address: string;
	/** The host the client addressed (Host, or X-Forwarded-Host behind trusted proxies). */
	host: string | undefined;
	/** "http" or "https" as the client used it, when a trusted proxy says (X-Forwarded-Proto). */
	proto: string | undefined;
}

/**
 * The view of a request, taking X-Forwarded-For, -Host and -Proto from the `trustProxy` proxies
 * in front (0: none, the headers are ignored as anyone could send them). Each proxy appends the
 * address it got the request from, so with n trusted proxies the client is the n-th entry from the
 * right: what a client writes there itself stays to the left and is never taken.
 */
export function clientView(
	headers: IncomingHttpHeaders,
	peerAddress: string | undefined,
	trustProxy: number,
): ClientView {
	const peer = normalizeAddress(peerAddress ?? "unknown");
	if (trustProxy <= 0) return { address: peer, host: headers.host, proto: undefined };
	const forwardedFor = hop(headers["x-forwarded-for"], trustProxy);
	const forwardedHost = hop(headers["x-forwarded-host"], trustProxy);
	const forwardedProto = hop(headers["x-forwarded-proto"], trustProxy)?.toLowerCase();
	return {
		address: forwardedFor ? normalizeAddress(forwardedFor) : peer,
		host: forwardedHost ?? headers.host,
		proto: forwardedProto === "http" || forwardedProto === "https" ? forwardedProto : undefined,
	};
}

/** The entry `hops` from the right of a comma-separated header (the leftmost when there are fewer). */
function hop(header: string | string[] | undefined, hops: number): string | undefined {
	if (header === undefined) return undefined;
	const entries = (Array.isArray(header) ? header.join(",") : header)
		.split(",")
		.map((entry) => entry.trim())
		.filter((entry) => entry.length > 0);
	if (entries.length === 0) return undefined;
	return entries[Math.max(0, entries.length - hops)];
}

/** "::ffff:10.0.0.1" is 10.0.0.1: one client, whichever way the socket spelled it. */
function normalizeAddress(address: string): string {
	return address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}
