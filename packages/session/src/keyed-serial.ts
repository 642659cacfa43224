/**
 * Runs work for one key at a time, in call order (different keys run concurrently): the
 * identity lookup-or-create uses it so that two first sends of one identity create one session.
 */
export class KeyedSerial {
	private readonly tails = new Map<string, Promise<unknown>>();

	run<T>(key: string, work: () => Promise<T>): Promise<T> {
		const previous = this.tails.get(key) ?? Promise.resolve();
		const result = previous.then(work);
		const settled = result.catch(() => {});
		this.tails.set(key, settled);
		void settled.then(() => {
			if (this.tails.get(key) === settled) this.tails.delete(key);
		});
		return result;
	}
}
