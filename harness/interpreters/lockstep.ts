/**
 * The lockstep driver of `compare`: each generated case of a check runs against both servers at
 * once, the same input, each side with a case context of its own, so each side's answers go to the
 * model's judges exactly as in `run`. A gate holds a side's k-th request until the other side has sent
 * its k-th too (or finished), so both servers see the sequence at the same pace; every request and
 * answer is recorded per side for the differ (harness/interpreters/lockstep-diff.ts). Nothing is judged here.
 */
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { casesOf, type AnyCheck, type CheckEnv } from '../case/index.ts';
import { CaseContext, releaseCaseNamespaces } from '../case/index.ts';
import { Tally } from '../case/index.ts';
import { CheckNotApplicable, ClauseViolation } from '../case/index.ts';
import { InfrastructureError, type StreamResponse, type Target, type TargetRequest } from '../transport/index.ts';
import { emptyFootprint, ownEnv } from '../case/index.ts';
import { JsonDocumentStream } from '../transport/index.ts';
import { UnsupportedByModel } from '../../reference/judgement.ts';
import type { Recorded } from './lockstep-diff.ts';

export type Side = 0 | 1;

/** Longest a side waits for the other to reach the same request: past it the sides go on unpaired. */
const GATE_PATIENCE_MS = 30_000;

export class Gate {
  private readonly sent: [number, number] = [0, 0];
  private readonly finished: [boolean, boolean] = [false, false];
  private waiters: { side: Side; k: number; go: () => void }[] = [];

  async arrive(side: Side): Promise<number> {
    const k = this.sent[side]++;
    this.wake();
    if (this.ready(side, k)) return k;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, GATE_PATIENCE_MS);
      this.waiters.push({
        side,
        k,
        go: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
    return k;
  }

  finish(side: Side): void {
    this.finished[side] = true;
    this.wake();
  }

  private ready(side: Side, k: number): boolean {
    const other = side === 0 ? 1 : 0;
    return this.sent[other] > k || this.finished[other];
  }

  private wake(): void {
    const still: typeof this.waiters = [];
    for (const w of this.waiters) this.ready(w.side, w.k) ? w.go() : still.push(w);
    this.waiters = still;
  }
}

interface MutableRecord {
  request: Recorded['request'];
  answer?: { status: number; json?: unknown; bodyText?: string; ending?: 'server' | 'client' };
  transportError?: string;
}

/** Where a side's requests go while a case runs: the case's gate and its recording. */
export interface SideSlot {
  current?: { gate: Gate; records: MutableRecord[]; lastDone?: number };
}

/** The env's target with a gate and a recorder in front; outside a case it passes straight through. */
export function lockstepTarget(inner: Target, side: Side, slot: SideSlot): Target {
  const enter = async (req: TargetRequest): Promise<{ rec: MutableRecord; done: () => void } | undefined> => {
    const c = slot.current;
    if (c === undefined) return undefined;
    const k = await c.gate.arrive(side);
    const rec: MutableRecord = { request: { method: req.method, path: req.path, query: req.query, body: req.body } };
    c.records[k] = rec;
    // The answer a judge speaks about is the one completed last (a watch completes when it is closed).
    return {
      rec,
      done: () => {
        c.lastDone = k;
      },
    };
  };
  const target: Target = {
    server: inner.server,
    async send(req) {
      const entered = await enter(req);
      try {
        const r = await inner.send(req);
        if (entered) entered.rec.answer = { status: r.status, ...(r.json !== undefined ? { json: r.json } : { bodyText: r.bodyText }) };
        return r;
      } catch (e) {
        if (entered) entered.rec.transportError = e instanceof Error ? e.message : String(e);
        throw e;
      } finally {
        entered?.done();
      }
    },
    close: () => inner.close(),
  };
  if (inner.openStream) {
    const open = inner.openStream.bind(inner);
    target.openStream = async (req) => {
      const entered = await enter(req);
      const res = await open(req);
      return entered ? recordedStream(res, entered.rec, entered.done) : res;
    };
  }
  return target;
}

/** The stream as the check reads it, its events kept for the differ (BOOKMARKs left out). */
function recordedStream(res: StreamResponse, rec: MutableRecord, done: () => void): StreamResponse {
  const parser = new JsonDocumentStream();
  const events: unknown[] = [];
  let closedByClient = false;
  rec.answer = { status: res.status, json: events, ending: 'client' };
  async function* chunks(): AsyncIterable<Uint8Array> {
    for await (const chunk of res.chunks) {
      for (const doc of parser.push(chunk)) if ((doc as { type?: unknown } | null)?.type !== 'BOOKMARK') events.push(doc);
      yield chunk;
    }
    if (!closedByClient) rec.answer = { ...rec.answer!, ending: 'server' };
    done();
  }
  return {
    status: res.status,
    headers: res.headers,
    chunks: chunks(),
    close() {
      closedByClient = true;
      res.close();
      done();
    },
  };
}

export interface Failure {
  readonly clause: string;
  readonly expected: string;
  readonly observed: string;
}

export type SideOutcome =
  | { readonly kind: 'conformed'; readonly notes: Notes }
  | { readonly kind: 'violated'; readonly failures: readonly Failure[]; readonly atStep: number; readonly notes: Notes }
  | { readonly kind: 'error'; readonly message: string; readonly atStep: number; readonly notes: Notes };

/** Non-failing verdicts of one case: open choices and waits that saw nothing, per clause. */
export interface Notes {
  readonly unspecified: Readonly<Record<string, readonly string[]>>;
  readonly inconclusive: Readonly<Record<string, readonly string[]>>;
  readonly notChecked: Readonly<Record<string, string>>;
  readonly passed: readonly string[];
}

export interface CaseRecord {
  readonly check: string;
  /** fast-check path of the case (its index in the run): `--path` replays it. */
  readonly path: string;
  readonly seed: number;
  readonly steps: readonly string[];
  readonly sides: readonly [{ records: readonly Recorded[]; outcome: SideOutcome }, { records: readonly Recorded[]; outcome: SideOutcome }];
}

export interface LockstepSides {
  readonly envs: readonly [CheckEnv, CheckEnv];
  readonly slots: readonly [SideSlot, SideSlot];
}

const caseStemOf = (checkId: string): string => createHash('sha256').update(checkId).digest('hex').slice(0, 6);

/**
 * Runs `runs` cases of a check in lockstep (or the one at `path`). A check not applicable on a side
 * returns its reason instead. Each case's cleanup runs outside the gate.
 */
export async function runLockstep(
  check: AnyCheck,
  sides: LockstepSides,
  o: { seed: number; runs: number; path?: string },
): Promise<{ cases: CaseRecord[]; notApplicable?: string }> {
  for (const env of sides.envs) {
    const why = check.applicable?.(env);
    if (why !== undefined) return { cases: [], notApplicable: why };
  }
  const cases: CaseRecord[] = [];
  let caseNumber = 0;
  const property = fc.asyncProperty(check.arbitrary(sides.envs[0]), async (input: unknown) => {
    const index = caseNumber++;
    // Cases are never shrunk here, so a path is the case's index: the ones before it are generated, not run.
    if (o.path !== undefined && index !== Number(o.path)) return;
    const gate = new Gate();
    const recs: [MutableRecord[], MutableRecord[]] = [[], []];
    const run = async (side: Side) => {
      const env = sides.envs[side];
      const tally = new Tally();
      const cx = new CaseContext(ownEnv(env, emptyFootprint(check.id)), tally, index + 1, caseStemOf(check.id));
      sides.slots[side].current = { gate, records: recs[side] };
      let outcome: SideOutcome;
      try {
        await check.run(input, cx);
        outcome = { kind: 'conformed', notes: notesOf(tally) };
      } catch (e) {
        outcome = outcomeOf(e, tally, sides.slots[side].current?.lastDone ?? recs[side].length - 1);
      } finally {
        gate.finish(side);
        sides.slots[side].current = undefined;
      }
      await releaseCaseNamespaces(cx);
      return outcome;
    };
    const [a, b] = await Promise.all([run(0), run(1)]);
    const path = String(index);
    cases.push({
      check: check.id,
      path,
      seed: o.seed,
      steps: check.describe(input),
      sides: [
        { records: dense(recs[0]), outcome: a },
        { records: dense(recs[1]), outcome: b },
      ],
    });
  });
  // The check's fixed examples come first, as in runCheck: a path counts them.
  const { examples, numRuns } = casesOf(check, sides.envs[0], o.runs);
  await fc.check(property, {
    seed: o.seed,
    numRuns: o.path !== undefined ? Number(o.path) + 1 : numRuns,
    examples: examples.map((e) => [e] as [unknown]),
  });
  return { cases };
}

// A request the gate let go unpaired leaves no hole behind it in practice; an empty slot is skipped.
const dense = (rs: readonly MutableRecord[]): Recorded[] => rs.filter((r): r is MutableRecord => r !== undefined);

function outcomeOf(e: unknown, tally: Tally, atStep: number): SideOutcome {
  if (e instanceof ClauseViolation) {
    return {
      kind: 'violated',
      failures: e.failures.map((f) => ({ clause: f.clause, expected: f.expected, observed: f.observed })),
      atStep,
      notes: notesOf(tally),
    };
  }
  if (e instanceof UnsupportedByModel) {
    tally.notCheckedBecause(e.clause, e.message);
    return { kind: 'conformed', notes: notesOf(tally) };
  }
  if (e instanceof CheckNotApplicable) return { kind: 'error', message: `not applicable: ${e.reason}`, atStep, notes: notesOf(tally) };
  const what =
    e instanceof InfrastructureError
      ? `infrastructure: ${e.message}`
      : `suite error (a bug of ours, not the target's): ${e instanceof Error ? e.message : String(e)}`;
  return { kind: 'error', message: what, atStep, notes: notesOf(tally) };
}

function notesOf(t: Tally): Notes {
  const flat = (m: Map<string, Map<string, number>>) => Object.fromEntries([...m].map(([c, notes]) => [c, [...notes.keys()].sort()]));
  return {
    unspecified: flat(t.unspecified),
    inconclusive: flat(t.inconclusive),
    notChecked: Object.fromEntries(t.notChecked),
    passed: [...t.passes.keys()].sort(),
  };
}
