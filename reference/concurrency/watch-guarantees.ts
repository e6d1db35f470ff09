/**
 * The watch guarantees of rest:6.1 and 4.5 over a recorded concurrent history, across every watcher,
 * in the manner of etcd's robustness checks, black-box. The commit order is not known (versions are
 * opaque); what is known is real-time precedence: a write answered before another was invoked
 * committed first. Each guarantee is judged only where that knowledge decides it.
 *
 * - ordered: no watcher shows a write before one that precedes it in real time, and no two watchers
 *   show one object's writes in different orders (rest:6.1.1);
 * - unique: no write shown twice to one watcher (rest:6.1.1);
 * - atomic: every event shows one whole write that happened, with the version its answer gave (6.1.1);
 * - reliable: a watcher that shows a write y has shown every in-scope write x after its start with
 *   x answered before y was invoked: no silent gap (6.1.1); a stream may end (410, error) instead;
 * - resumable: a watch resumed from a version another watch showed continues that stream with no gap
 *   and no repeat, or ends with 410 (6.1.2, 6.1.3);
 * - bookmarkable: a BOOKMARK at the version of a known write comes after that write's event and
 *   before no event of an earlier write (6.1/BOOKMARK);
 * - lists vs watches: a list at collection version V equals the state a gap-free state-starting watch
 *   implies at its event or bookmark of version V (rest:2.3/metadata.resourceVersion).
 * Deletion events (type and payload not shown, rest:6.1.6) only remove their key from a watch's state.
 */
import type { ConcurrentHistory, RecordedEvent, RecordedOp, RecordedWatch } from './history-types.ts';
import type { ClauseId } from '../catalog/clause-ids.ts';

export type Guarantee = 'ordered' | 'unique' | 'atomic' | 'reliable' | 'resumable' | 'bookmarkable' | 'list-watch' | 'scoped';

export const GUARANTEE_CLAUSE: Readonly<Record<Guarantee, ClauseId>> = {
  ordered: 'rest:6.1.1',
  unique: 'rest:6.1.1',
  atomic: 'rest:6.1.1',
  reliable: 'rest:6.1.1',
  resumable: 'rest:6.1.2',
  bookmarkable: 'rest:6.1/BOOKMARK',
  'list-watch': 'rest:2.3/metadata.resourceVersion',
  // Every object a watch or list shows lies in the namespaces it covers (its path's, or the case's
  // for a cluster-wide one by the case label): the scope rule of reference/scope.ts.
  scoped: 'rest:4.1/get-namespaced-collection',
};

export interface WatchViolation {
  readonly guarantee: Guarantee;
  readonly clause: ClauseId;
  readonly watch?: string;
  readonly message: string;
  /** Operation ids involved, for the timeline. */
  readonly ops: readonly number[];
}

const ORDINARY = new Set(['ADDED', 'MODIFIED']);
/** An event that shows one write: ADDED or MODIFIED with a token, not the Terminating state of a delete. */
const isWriteEvent = (e: RecordedEvent): boolean => ORDINARY.has(e.type) && e.token !== undefined && e.terminating !== true;
const isWrite = (o: RecordedOp): boolean => o.input.kind === 'create' || o.input.kind === 'update';
const tokenOf = (o: RecordedOp): string | undefined => (o.input.kind === 'create' || o.input.kind === 'update' ? o.input.token : undefined);
/** a answered before b was invoked. */
const rtBefore = (a: RecordedOp, b: RecordedOp): boolean => a.ret !== undefined && a.ret < b.call;
const nsOf = (key: string): string => key.slice(0, key.indexOf('/'));

interface Index {
  readonly byToken: ReadonlyMap<string, RecordedOp>;
  /** Writes that took effect for sure (2xx), plus unanswered ones some observation shows. */
  readonly effective: readonly RecordedOp[];
  readonly byRv: ReadonlyMap<string, RecordedOp>;
}

function indexOf(h: ConcurrentHistory): Index {
  const byToken = new Map<string, RecordedOp>();
  for (const o of h.ops) {
    const t = tokenOf(o);
    if (t !== undefined) byToken.set(t, o);
  }
  const shown = new Set<string>();
  for (const w of h.watches) for (const e of w.events) if (e.token !== undefined) shown.add(e.token);
  for (const l of h.lists) for (const i of l.items) if (i.token !== undefined) shown.add(i.token);
  for (const o of h.ops) if (o.input.kind === 'read' && o.output.status === 'ok' && o.output.token !== undefined) shown.add(o.output.token);
  const effective = h.ops.filter(
    (o) => isWrite(o) && (o.output.status === 'ok' || (o.output.status === 'unknown' && shown.has(tokenOf(o)!))),
  );
  const byRv = new Map<string, RecordedOp>();
  for (const o of effective) if (o.output.status === 'ok' && o.output.rv !== undefined) byRv.set(o.output.rv, o);
  return { byToken, effective, byRv };
}

export function checkWatchGuarantees(h: ConcurrentHistory): WatchViolation[] {
  const ix = indexOf(h);
  const out: WatchViolation[] = [];
  for (const w of h.watches) out.push(...perWatch(w, ix, h));
  out.push(...outOfScope(h));
  out.push(...crossWatchOrder(h.watches, ix));
  out.push(
    ...listsAgainstWatches(
      h,
      ix,
      new Set(out.filter((v) => v.guarantee === 'reliable' || v.guarantee === 'ordered').map((v) => v.watch ?? '')),
    ),
  );
  return out;
}

/** Objects shown by a watch or list outside the namespaces it covers (a key-prefix leak). */
function outOfScope(h: ConcurrentHistory): WatchViolation[] {
  const out: WatchViolation[] = [];
  for (const w of h.watches) {
    const stray = w.events.filter((e) => e.type !== 'BOOKMARK' && e.key !== undefined && !w.namespaces.includes(nsOf(e.key)));
    if (stray.length > 0)
      out.push(
        v(
          'scoped',
          w.id,
          `${stray.length} event(s) for objects outside ${w.namespaces.join(', ')}: ${stray
            .slice(0, 3)
            .map((e) => `${e.type} ${e.key}`)
            .join(', ')}`,
          [],
        ),
      );
  }
  for (const l of h.lists) {
    const stray = l.items.filter((i) => !l.namespaces.includes(nsOf(i.key)));
    if (stray.length > 0)
      out.push(
        v(
          'scoped',
          undefined,
          `a list of ${l.namespaces.join(', ')} showed ${stray.length} object(s) outside it: ${stray
            .slice(0, 3)
            .map((i) => i.key)
            .join(', ')}`,
          [],
        ),
      );
  }
  return out;
}

function v(guarantee: Guarantee, watch: string | undefined, message: string, ops: readonly number[]): WatchViolation {
  return { guarantee, clause: GUARANTEE_CLAUSE[guarantee], watch, message, ops };
}

/** The events of writes (ADDED / MODIFIED with a token), with the write each shows. */
function writeEvents(w: RecordedWatch, ix: Index): { e: RecordedEvent; op: RecordedOp | undefined; pos: number }[] {
  return w.events.flatMap((e, pos) => (isWriteEvent(e) ? [{ e, op: ix.byToken.get(e.token!), pos }] : []));
}

/** A state-starting watch begins with synthetic ADDED events of writes from before its start. */
const synthetic = (w: RecordedWatch, op: RecordedOp): boolean => w.start.kind === 'state' && op.call <= w.startKnownAt;

function perWatch(w: RecordedWatch, ix: Index, h: ConcurrentHistory): WatchViolation[] {
  const out: WatchViolation[] = [];
  const evs = writeEvents(w, ix);
  const seen = new Map<string, number>();
  for (const { e, op } of evs) {
    if (op === undefined || !(op.output.status === 'ok' || op.output.status === 'unknown')) {
      out.push(
        v(
          'atomic',
          w.id,
          `event ${e.type} ${e.key ?? ''} shows write ${e.token}, which ${op === undefined ? 'no client made' : `was refused (${op.output.status})`}`,
          op ? [op.id] : [],
        ),
      );
      continue;
    }
    if (op.sent !== undefined && e.data !== undefined && !sameData(op.sent, e.data)) {
      out.push(
        v(
          'atomic',
          w.id,
          `event for write ${e.token} on ${op.key} shows ${JSON.stringify(e.data)}, not the whole write ${JSON.stringify(op.sent)}`,
          [op.id],
        ),
      );
    }
    if (op.output.status === 'ok' && op.output.rv !== undefined && e.rv !== undefined && e.rv !== op.output.rv) {
      out.push(
        v('atomic', w.id, `event for write ${e.token} carries resourceVersion ${e.rv}; the write was answered with ${op.output.rv}`, [
          op.id,
        ]),
      );
    }
    if (e.key !== undefined && e.key !== op.key)
      out.push(v('atomic', w.id, `event on ${e.key} shows write ${e.token} made to ${op.key}`, [op.id]));
    const n = (seen.get(op.input.kind === 'read' ? '' : tokenOf(op)!) ?? 0) + 1;
    seen.set(tokenOf(op)!, n);
    if (n === 2) out.push(v('unique', w.id, `write ${tokenOf(op)} on ${op.key} shown twice`, [op.id]));
  }
  const ops = evs.flatMap((x) => (x.op ? [x.op] : []));
  // Ordered: no shown write was answered before an earlier-shown one was sent. One pass: the earlier
  // event with the latest invocation is the only one that can be out of order with the current one.
  // Synthetic ADDED events are one snapshot, in no order.
  const realEvents = ops.filter((o) => !synthetic(w, o));
  let latestCall: RecordedOp | undefined;
  for (const o of realEvents) {
    if (latestCall !== undefined && rtBefore(o, latestCall)) {
      out.push(
        v(
          'ordered',
          w.id,
          `write ${tokenOf(o)} (${o.key}) was answered before write ${tokenOf(latestCall)} (${latestCall.key}) was sent, but is shown after it`,
          [latestCall.id, o.id],
        ),
      );
    }
    if (latestCall === undefined || o.call > latestCall.call) latestCall = o;
  }
  // Reliable: every in-scope write after the start that precedes a shown write in real time is shown.
  const shown = new Set(ops.map((o) => o.id));
  const lastInvoked = realEvents.reduce<RecordedOp | undefined>((m, o) => (m === undefined || o.call > m.call ? o : m), undefined);
  for (const x of ix.effective) {
    if (shown.has(x.id) || x.terminating === true || !w.namespaces.includes(nsOf(x.key)) || x.call <= w.startKnownAt) continue;
    const later = lastInvoked !== undefined && rtBefore(x, lastInvoked) ? lastInvoked : undefined;
    if (later !== undefined) {
      out.push(
        v(
          'reliable',
          w.id,
          `write ${tokenOf(x)} on ${x.key} (answered ${x.output.status === 'ok' ? `rv ${x.output.rv ?? '?'}` : 'never'}) was never shown, though write ${tokenOf(later)} sent after it was answered is${w.slow ? ' (slow watcher: the stream went on instead of ending with an error or 410)' : ''}`,
          [x.id, later.id],
        ),
      );
    }
  }
  out.push(...bookmarks(w, ix));
  if (w.resumedFrom !== undefined) out.push(...resumed(w, ix, h));
  return out;
}

function bookmarks(w: RecordedWatch, ix: Index): WatchViolation[] {
  const out: WatchViolation[] = [];
  w.events.forEach((b, i) => {
    if (b.type !== 'BOOKMARK' || b.rv === undefined) return;
    const wb = ix.byRv.get(b.rv);
    if (wb === undefined || !w.namespaces.includes(nsOf(wb.key))) return;
    const before = w.events.slice(0, i).some((e) => e.token === tokenOf(wb));
    if (!before && wb.call > w.startKnownAt)
      out.push(
        v('bookmarkable', w.id, `BOOKMARK at ${b.rv}, the version of write ${tokenOf(wb)} on ${wb.key}, came before that write's event`, [
          wb.id,
        ]),
      );
    for (const e of w.events.slice(i + 1)) {
      const x = isWriteEvent(e) ? ix.byToken.get(e.token!) : undefined;
      if (x !== undefined && x !== wb && rtBefore(x, wb) && x.call > w.startKnownAt) {
        out.push(
          v(
            'bookmarkable',
            w.id,
            `BOOKMARK at ${b.rv} (write ${tokenOf(wb)}) claimed progress past write ${tokenOf(x)} on ${x.key}, which was answered before it and shown only after the bookmark`,
            [x.id, wb.id],
          ),
        );
      }
    }
  });
  return out;
}

function resumed(w: RecordedWatch, ix: Index, h: ConcurrentHistory): WatchViolation[] {
  const from = w.resumedFrom!;
  const origin = h.watches.find((o) => o.id === from.watch);
  if (origin === undefined) return [];
  const at = origin.events.findIndex((e) => e.rv === from.rv);
  if (at < 0) return [v('resumable', w.id, `resumed from ${from.rv}, a version watch ${from.watch} never showed (a suite bug)`, [])];
  const seenBefore = new Set(origin.events.slice(0, at + 1).flatMap((e) => (isWriteEvent(e) ? [e.token!] : [])));
  const after = origin.events.slice(at + 1).flatMap((e) => (isWriteEvent(e) ? [e.token!] : []));
  const mine = w.events.flatMap((e) => (isWriteEvent(e) ? [e.token!] : []));
  const out: WatchViolation[] = [];
  const opIds = (t: string): number[] => (ix.byToken.get(t) ? [ix.byToken.get(t)!.id] : []);
  for (const t of mine)
    if (seenBefore.has(t))
      out.push(
        v(
          'resumable',
          w.id,
          `resumed from ${from.rv} but shows write ${t} again, which ${from.watch} showed at or before that version`,
          opIds(t),
        ),
      );
  const position = new Map(after.map((t, i) => [t, i]));
  const mineSet = new Set(mine);
  let last = -1;
  for (const t of mine) {
    const j = position.get(t) ?? -1;
    if (j < 0) continue;
    if (j < last) out.push(v('resumable', w.id, `resumed stream shows ${t} out of the order of ${from.watch}`, opIds(t)));
    const skipped = after.slice(last + 1, j).filter((s) => !mineSet.has(s));
    for (const s of skipped)
      out.push(
        v('resumable', w.id, `resumed from ${from.rv}: write ${s} shown by ${from.watch} after that version is missing before ${t}`, [
          ...opIds(s),
          ...opIds(t),
        ]),
      );
    last = Math.max(last, j);
  }
  return out;
}

/**
 * One object's writes in the same order in every watcher: per pair of watchers and per object, the
 * writes both show must come in increasing positions of the other. Linear per pair.
 */
function crossWatchOrder(watches: readonly RecordedWatch[], ix: Index): WatchViolation[] {
  const perKey = watches.map((w) => {
    const seqs = new Map<string, string[]>();
    const pos = new Map<string, number>();
    for (const e of w.events) {
      if (!isWriteEvent(e) || pos.has(e.token!)) continue;
      const key = ix.byToken.get(e.token!)?.key ?? e.key ?? '';
      const seq = seqs.get(key) ?? [];
      pos.set(e.token!, seq.length);
      seq.push(e.token!);
      seqs.set(key, seq);
    }
    return { w, seqs, pos };
  });
  const out: WatchViolation[] = [];
  for (let a = 0; a < perKey.length; a++) {
    for (let b = a + 1; b < perKey.length; b++) {
      const A = perKey[a]!;
      const B = perKey[b]!;
      for (const [key, seq] of B.seqs) {
        let prev: string | undefined;
        for (const t of seq) {
          const p = A.pos.get(t);
          if (p === undefined) continue;
          if (prev !== undefined && A.pos.get(prev)! > p) {
            const ids = [prev, t].flatMap((x) => (ix.byToken.get(x) ? [ix.byToken.get(x)!.id] : []));
            out.push(
              v('ordered', B.w.id, `watches ${A.w.id} and ${B.w.id} show the writes ${prev} and ${t} of ${key} in opposite orders`, ids),
            );
          }
          prev = t;
        }
      }
    }
  }
  return out;
}

function listsAgainstWatches(h: ConcurrentHistory, ix: Index, unreliable: ReadonlySet<string>): WatchViolation[] {
  const out: WatchViolation[] = [];
  for (const l of h.lists) {
    for (const w of h.watches) {
      if (w.start.kind !== 'state' || unreliable.has(w.id) || !l.namespaces.every((n) => w.namespaces.includes(n))) continue;
      const at = w.events.findIndex((e) => e.rv === l.rv);
      if (at < 0) continue;
      const upTo = w.events[at]!.type === 'BOOKMARK' ? at - 1 : at;
      const state = new Map<string, string | undefined>();
      for (const e of w.events.slice(0, upTo + 1)) {
        if (e.key === undefined || e.type === 'BOOKMARK') continue;
        // A Terminating object is still listed; a deletion event (any other type) removes it.
        if (ORDINARY.has(e.type)) state.set(e.key, e.token);
        else state.delete(e.key);
      }
      const listed = new Map(l.items.map((i) => [i.key, i.token]));
      const keys = new Set([...state.keys(), ...listed.keys()].filter((k) => l.namespaces.includes(nsOf(k))));
      const diffs: string[] = [];
      for (const k of keys) {
        const s = state.get(k);
        const li = listed.get(k);
        if (state.has(k) !== listed.has(k) || s !== li)
          diffs.push(`${k}: list ${listed.has(k) ? li : 'absent'}, watch ${state.has(k) ? s : 'absent'}`);
      }
      if (diffs.length > 0) {
        const involved = [...keys]
          .flatMap((k) => [state.get(k), listed.get(k)])
          .flatMap((t) => (t !== undefined && ix.byToken.get(t) ? [ix.byToken.get(t)!.id] : []));
        out.push(
          v(
            'list-watch',
            w.id,
            `list ${l.id} at resourceVersion ${l.rv} differs from the state watch ${w.id} shows at that version: ${diffs.slice(0, 4).join('; ')}`,
            [...new Set(involved)],
          ),
        );
      }
      break;
    }
  }
  return out;
}

function sameData(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}
