/**
 * A concurrent history as the run's record keeps it for its judge (docs/rejudge.md): the long values
 * the writes sent and the events delivered (a padding of 256 bytes per write, the slow reader's 128
 * KiB backlog objects) replaced by a digest of each, which the judge compares for equality just as it
 * compares the values; tokens, versions, keys and times stay as they are. The whole history is still
 * what a failure saves.
 *
 *   digestedHistory(h).ops[0].sent  ->  { w: 'c0', pad: 'sha256:3f1c…(256 chars)' }
 */
import { createHash } from 'node:crypto';
import type { ConcurrentHistory } from '../../reference/concurrency/history-types.ts';

/** Values up to this long are kept: tokens and short data read better in a message than a digest. */
const KEPT_CHARS = 64;

const digestOf = (v: string): string =>
  v.length <= KEPT_CHARS ? v : `sha256:${createHash('sha256').update(v).digest('hex').slice(0, 24)}(${v.length} chars)`;

function digested(data: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> | undefined {
  if (data === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) out[k] = typeof v === 'string' ? digestOf(v) : v;
  return out;
}

export function digestedHistory(h: ConcurrentHistory): ConcurrentHistory {
  return {
    ...h,
    ops: h.ops.map((o) => (o.sent === undefined ? o : { ...o, sent: digested(o.sent)! })),
    watches: h.watches.map((w) => ({ ...w, events: w.events.map((e) => (e.data === undefined ? e : { ...e, data: digested(e.data)! })) })),
  };
}
