import type { SessionMetadata, SessionStore } from "@agent/session-format";

const PAGE = 500;

/** Earlier imports in a store, found by their `importedFrom` (format and the source's own id). */
export class ImportIndex {
	private readonly byKey = new Map<string, SessionMetadata>();

	/** Lists every session's metadata (archived ones too, page by page) and keeps the imported ones. */
	static async load(store: SessionStore): Promise<ImportIndex> {
		const index = new ImportIndex();
		let cursor: string | undefined;
		do {
			const page = await store.list(
				cursor === undefined ? { archived: true, limit: PAGE } : { archived: true, limit: PAGE, cursor },
			);
			for (const metadata of page.sessions) {
				if (metadata.importedFrom) index.set(metadata.importedFrom.format, metadata.importedFrom.sourceId, metadata);
			}
			cursor = page.nextCursor;
		} while (cursor !== undefined);
		return index;
	}

	get(format: string, sourceId: string): SessionMetadata | undefined {
		return this.byKey.get(key(format, sourceId));
	}

	/** Drops the entry of a session that was deleted again (a failed import). */
	forget(format: string, sourceId: string, id: string): void {
		if (this.byKey.get(key(format, sourceId))?.id === id) this.byKey.delete(key(format, sourceId));
	}

	set(format: string, sourceId: string, metadata: SessionMetadata): void {
		const existing = this.byKey.get(key(format, sourceId));
		// Two sessions claiming one source (a race between importers): the first created (lowest ULID) is the import.
		if (!existing || metadata.id < existing.id) {
			this.byKey.set(key(format, sourceId), metadata);
		}
	}
}

function key(format: string, sourceId: string): string {
	return `${format}\u0000${sourceId}`;
}
