/**
 * Passed clauses that no planted fault of the reference targets can fail, and why (oracle strength:
 * every clause a default run passes either has a planted fault that fails it under that clause, or a
 * reason here). Read by `npm run fault-coverage` (scripts/dev/fault-coverage.ts), which lists the
 * passed clauses with neither.
 *
 * A reason must say why a server that breaks exactly what the clause states cannot be planted, or why
 * such a server would fail another clause first; "not done yet" is not a reason (those stay listed as
 * missing). The second kind names judgements that record a clause as passed and report its departures
 * elsewhere: each is a candidate for a judge that fails the clause itself.
 */
import type { ClauseId } from './clause-ids.ts';

const UNHEALTHY_IS_LEGAL =
  'any answer but 200 says the target is unhealthy, which the spec allows and a client cannot contradict (recorded under rest:7.7): no answer of the aggregate endpoint can fail it, so it passes on 200 alone';
const RECORDED_WITH_THE_CELL =
  "recorded for a read the model accepted (the path shape or parameter worked); a server that breaks it answers that read wrongly, which fails the read's rest:4.5 cell or row first (cell-misread/*, ignore-exact, page-overflow, all-namespaces-list-empty)";
const RECORDED_WITH_THE_REPRESENTATION =
  'recorded when that representation was served; serving another one fails rest:4.8/response or rest:4.8/fallback (accept-first-only, 406-replaced-by-json), a broken one its own shape clause (protobuf-bad-magic: rest:2.7.1, table-core-api-version: rest:2.5/table)';
const EVENT_TYPE_IN_THE_STREAM =
  'recorded per event of that type seen; an event of the wrong type makes the stream differ from the one the model expects, which fails rest:6.1.1 first (a planted MODIFIED-as-ADDED was reported there)';

export const noPlantedFaultReasons: Readonly<Partial<Record<ClauseId, string>>> = {
  'rest:4.2/healthz': UNHEALTHY_IS_LEGAL,
  'rest:4.2/livez': UNHEALTHY_IS_LEGAL,
  'rest:4.2/readyz': UNHEALTHY_IS_LEGAL,
  'rest:4.2.1': UNHEALTHY_IS_LEGAL,
  'rest:6.1.5':
    'a watch from a version not reached yet may wait or be refused with 504, and both pass; each departure has a clause of its own: starting from now fails rest:6.1.1 (watch-future-as-now), 410 fails rest:7/410',
  'rest:9.2/beta':
    'a served version whose name reads as beta passes; a name with no stability level fails rest:9.2/stable (version-name-unreadable), the one row such a name breaks',
  'rest:4.1/get-namespaced-object': RECORDED_WITH_THE_CELL,
  'rest:4.1/get-core': RECORDED_WITH_THE_CELL,
  'rest:4.3/resourceVersion': RECORDED_WITH_THE_CELL,
  'rest:4.3/continue': RECORDED_WITH_THE_CELL,
  'rest:4.4.5': RECORDED_WITH_THE_CELL,
  'rest:4.5/meaning/any': RECORDED_WITH_THE_CELL,
  'rest:4.5/meaning/continue-exact':
    'recorded with the continuation pages the model accepted; a continuation read at another version fails rest:4.4.3 first (continuation-sees-new-writes, page-rv-drift)',
  'rest:4.4.2':
    "a chain whose continue never becomes empty shows only after the suite's page bound (200 pages, a counterexample of over 200 requests that no shrink shortens); a chain that ends wrongly fails its own clause first: a token on the last page rest:2.3/metadata.continue (continue-on-last-page), a page that repeats or skips items rest:4.4.3 (page-chain-drift, continuation-sees-new-writes)",
  'rest:4.8/default': RECORDED_WITH_THE_REPRESENTATION,
  'rest:4.8/table': RECORDED_WITH_THE_REPRESENTATION,
  'rest:6.1/ADDED': EVENT_TYPE_IN_THE_STREAM,
  'rest:6.1/MODIFIED': EVENT_TYPE_IN_THE_STREAM,
};
