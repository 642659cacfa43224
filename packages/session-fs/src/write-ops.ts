/**
 * The writing half of the store, and its checking half: leases and the writer (which validate
 * what is appended with the record schemas), fork, verify, deferred sessions written out.
 * backend.ts loads this module on the first operation that needs it, so that a process that only
 * reads (a listing, a resume, a tail) loads none of it, nor zod.
 */

export { writeDeferredSession } from "./deferred.js";
export { forkSession } from "./fork.js";
export { acquireLease, withLease } from "./lease.js";
export { verifySession } from "./verify.js";
