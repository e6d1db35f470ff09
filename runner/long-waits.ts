/**
 * Checks whose time against a real server is mostly one wait on the target: names-and-scope waits
 * for its namespaces to be deleted (the controller manager empties them, about 30 s upstream),
 * too-large-resource-version for the server's 504 to a version it has not reached (several seconds
 * a read, shrinking included). In a slot each held a quarter of the run's parallelism while it slept;
 * they start at once beside the other checks and hold no slot, so no single wait sets the run's
 * length. With one slot (`--parallel 1`) the run stays one check at a time.
 */
const WAITS_LONG: ReadonlySet<string> = new Set(['names-and-scope', 'too-large-resource-version']);

/** Whether a check starts at once, beside the `limit` slots of the others. */
export const startsBesideSlots = (checkId: string, limit: number): boolean => limit > 1 && WAITS_LONG.has(checkId);
