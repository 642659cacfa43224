// In-page measurements, as strings evaluated in Chromium (the page's own clock: performance.now()).

/** Opens a session by its hash and resolves with the ms until its last message is painted in view. */
export const openAtLatest = (id: string, lastSeq: number) => `(async () => {
	const t0 = performance.now();
	location.hash = "#/s/${id}";
	for (;;) {
		await new Promise((resolve) => requestAnimationFrame(resolve));
		const scroller = document.getElementById("transcript");
		const row = scroller && scroller.querySelector('[data-seq="${lastSeq}"]');
		if (row) {
			const r = row.getBoundingClientRect();
			const s = scroller.getBoundingClientRect();
			if (r.bottom <= s.bottom + 2 && r.bottom > s.top) {
				await new Promise((resolve) => requestAnimationFrame(resolve));
				return performance.now() - t0;
			}
		}
		if (performance.now() - t0 > 120000) return -1;
	}
})()`;

/** Resolves once every record of the open session is loaded; the ms it took from now. */
export const untilComplete = `(async () => {
	const t0 = performance.now();
	while (document.getElementById("transcript").dataset.complete !== "true") {
		await new Promise((resolve) => setTimeout(resolve, 20));
		if (performance.now() - t0 > 300000) return -1;
	}
	return performance.now() - t0;
})()`;

export const elementCount = `document.getElementsByTagName("*").length`;

/** Scrolls the transcript to its middle and waits two frames. */
export const scrollTranscriptToMiddle = `(async () => {
	const s = document.getElementById("transcript");
	s.scrollTop = s.scrollHeight / 2;
	for (let i = 0; i < 3; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
})()`;

/** Records, for each key pressed in the message box, the ms from the keydown to the frame that painted it. */
export const watchKeystrokes = `(() => {
	window.__keys = [];
	document.getElementById("message").addEventListener("keydown", (event) => {
		const t = event.timeStamp;
		requestAnimationFrame(() => setTimeout(() => window.__keys.push(performance.now() - t), 0));
	});
})()`;

/** Resolves with the ms from Enter in the message box to the first painted text of the streamed reply. */
export const watchReply = `(() => {
	window.__reply = new Promise((resolve) => {
		let enter;
		document.getElementById("message").addEventListener("keydown", (event) => {
			if (event.key === "Enter") enter = event.timeStamp;
		}, { capture: true });
		const observer = new MutationObserver(() => {
			const bubble = document.querySelector('[data-testid="streaming"] .text');
			if (enter === undefined || !bubble || !bubble.textContent) return;
			observer.disconnect();
			requestAnimationFrame(() => resolve(performance.now() - enter));
		});
		observer.observe(document.body, { subtree: true, childList: true, characterData: true });
	});
})()`;

/**
 * Scrolls the session list to its end, a screen per frame, and reports how many sessions were
 * reached, how long it took, and the longest frame on the way.
 */
export const scrollListToEnd = (expected: number) => `(async () => {
	const list = document.getElementById("session-list");
	const t0 = performance.now();
	let last = t0;
	let longest = 0;
	let maxElements = 0;
	const seen = new Set();
	const collect = () => {
		for (const item of list.querySelectorAll("[data-id]")) seen.add(item.dataset.id);
	};
	collect();
	for (let step = 0; step < 5000; step++) {
		list.scrollTop += Math.round(list.clientHeight * 0.8);
		await new Promise((resolve) => requestAnimationFrame(resolve));
		const now = performance.now();
		longest = Math.max(longest, now - last);
		last = now;
		collect();
		maxElements = Math.max(maxElements, document.getElementsByTagName("*").length);
		if (seen.size >= ${expected} && list.scrollTop + list.clientHeight >= list.scrollHeight - 2) break;
		if (now - t0 > 120000) break;
	}
	return {
		reached: seen.size,
		ms: performance.now() - t0,
		longestFrameMs: longest,
		maxElements,
		loadMoreButtons: [...document.querySelectorAll("button")].filter((b) => /load more/i.test(b.textContent)).length,
	};
})()`;
