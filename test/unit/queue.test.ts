import { Queue, RequestPacer } from '../../nodes/shared/transport/pacer';

describe('Queue', () => {
	it('gives entries back oldest first, across its compactions, with pushes in between', () => {
		const queue = new Queue<number>();
		const taken: number[] = [];
		let pushed = 0;
		for (let round = 0; round < 50; round++) {
			for (let i = 0; i < 700; i++) queue.push(pushed++);
			for (let i = 0; i < 500; i++) taken.push(queue.shift()!);
		}
		expect(queue.length).toBe(pushed - taken.length);
		expect(queue.peek()).toBe(taken.length);
		expect([...queue]).toEqual(Array.from({ length: queue.length }, (_, i) => taken.length + i));
		while (queue.length > 0) taken.push(queue.shift()!);
		expect(taken).toEqual(Array.from({ length: pushed }, (_, i) => i));
		expect(queue.shift()).toBeUndefined();
		expect(queue.peek()).toBeUndefined();
	});
});

describe('a pacer with tens of thousands of requests waiting', () => {
	it('starts them in the order they asked, never more at once than allowed', async () => {
		const pacer = new RequestPacer({ maxConcurrency: 8 });
		let running = 0;
		let most = 0;
		const started: number[] = [];
		await Promise.all(
			Array.from({ length: 30_000 }, async (_, index) => {
				const release = await pacer.acquire();
				started.push(index);
				most = Math.max(most, ++running);
				await Promise.resolve();
				running--;
				release();
			}),
		);
		expect(started).toEqual(Array.from({ length: 30_000 }, (_, i) => i));
		expect(most).toBe(8);
	});
});
