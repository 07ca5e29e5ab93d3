/** Small measuring tools: wall time, peak RSS, medians, sliding-window counts. */

export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; wallMs: number }> {
	const started = performance.now();
	const result = await work();
	return { result, wallMs: performance.now() - started };
}

/**
 * Peak resident set size of this process while `work` runs, sampled every `everyMs`. The sandbox
 * runs in its own process, so this is the client's (n8n's) memory alone.
 */
export async function withPeakRss<T>(work: () => Promise<T>, everyMs = 20): Promise<{ result: T; peakRssBytes: number; startRssBytes: number }> {
	const startRssBytes = process.memoryUsage.rss();
	let peakRssBytes = startRssBytes;
	const sampler = setInterval(() => {
		peakRssBytes = Math.max(peakRssBytes, process.memoryUsage.rss());
	}, everyMs);
	try {
		const result = await work();
		peakRssBytes = Math.max(peakRssBytes, process.memoryUsage.rss());
		return { result, peakRssBytes, startRssBytes };
	} finally {
		clearInterval(sampler);
	}
}

export function median(values: number[]): number {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The most timestamps that fall in any window [t, t + windowMs) — the count a sliding-window quota sees. */
export function maxInSlidingWindow(timestamps: number[], windowMs: number): number {
	const sorted = [...timestamps].sort((a, b) => a - b);
	let best = 0;
	let start = 0;
	for (let end = 0; end < sorted.length; end++) {
		while (sorted[end] - sorted[start] >= windowMs) start++;
		best = Math.max(best, end - start + 1);
	}
	return best;
}

export const sleepMs = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
