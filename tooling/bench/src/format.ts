import type { Measurement } from "./measure.js";

export function formatMs(ms: number): string {
	if (!Number.isFinite(ms)) return "—";
	if (ms < 1) return `${ms.toFixed(2)} ms`;
	if (ms < 100) return `${ms.toFixed(1)} ms`;
	if (ms < 10_000) return `${Math.round(ms)} ms`;
	return `${(ms / 1000).toFixed(1)} s`;
}

export function formatBytes(bytes: number | undefined): string {
	if (bytes === undefined || !Number.isFinite(bytes)) return "—";
	const mib = bytes / (1 << 20);
	if (mib >= 1024) return `${(mib / 1024).toFixed(2)} GiB`;
	if (mib >= 10) return `${Math.round(mib)} MiB`;
	return `${mib.toFixed(1)} MiB`;
}

/** The median, or what happened instead ("cannot", "timeout", "error"). */
export function formatTime(m: Measurement | undefined): string {
	if (!m) return "";
	if (m.status === "ok") return formatMs(m.medianMs);
	return m.status === "timeout" ? `timeout (${m.reason ?? ""})` : m.status;
}

/** How many times `slow` took as long as `fast`; a "cannot" or timeout of `slow` shows as unbounded. */
export function ratio(slow: Measurement | undefined, fast: Measurement | undefined): number | undefined {
	if (!slow || !fast || fast.status !== "ok") return undefined;
	if (slow.status === "cannot" || slow.status === "timeout") return Number.POSITIVE_INFINITY;
	if (slow.status !== "ok") return undefined;
	return slow.medianMs / fast.medianMs;
}

/** The same ratio on CPU-time medians. */
export function cpuRatio(slow: Measurement | undefined, fast: Measurement | undefined): number | undefined {
	const r = ratio(slow, fast);
	if (r === undefined || !Number.isFinite(r)) return r;
	return (slow?.medianCpuMs ?? Number.NaN) / (fast?.medianCpuMs ?? Number.NaN);
}

export function formatRatio(value: number | undefined): string {
	if (value === undefined || Number.isNaN(value)) return "";
	if (!Number.isFinite(value)) return "∞";
	if (value >= 100) return `${Math.round(value)}x`;
	if (value >= 10) return `${value.toFixed(1)}x`;
	return `${value.toFixed(2)}x`;
}

/** Peak RSS of the process during the first run, minus RSS right before it. */
export function rssGrowth(m: Measurement | undefined): number | undefined {
	if (m?.status !== "ok" || m.peakRss === undefined || m.baselineRss === undefined) return undefined;
	return Math.max(0, m.peakRss - m.baselineRss);
}
