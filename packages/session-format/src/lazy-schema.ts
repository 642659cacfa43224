import * as z from "zod";

/**
 * A schema that is built the first time it is used (zod's own z.lazy, over a builder run once).
 * zod builds a schema eagerly, object by object and field by field, and that costs a process some
 * 20 ms at import for this package's schemas: more than a read command's whole own work. Reading
 * never needs them (the hot records and metadata.json are checked by hand; zod only decides what
 * those checks do not accept), so they are built when something does. It parses, composes and
 * reports errors as the schema inside; `.unwrap()` gives that schema (for `.shape`, `.extend`...).
 */
/* @__NO_SIDE_EFFECTS__ */
export function lazySchema<T extends z.ZodType>(build: () => T): z.ZodLazy<T> {
	let built: T | undefined;
	return z.lazy(() => {
		built ??= build();
		return built;
	});
}
