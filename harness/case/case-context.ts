/**
 * One test case against the target: the namespaces it created, what the model learned, and the
 * judge that records verdicts and stops the case at the first failure (so fast-check can shrink; the
 * check itself goes on with its other cases, runner/run-check.ts).
 */
import { emptyHistory, type History } from '../../reference/history.ts';
import type { Judgement } from '../../reference/judgement.ts';
import type { LearnedValues } from '../../reference/envelope-rules.ts';
import type { CheckEnv } from './check-env.ts';
import { objectPath, resourceTypes } from '../../reference/resources.ts';
import { InfrastructureError, type Exchange, type TargetRequest, type TargetResponse } from '../transport/index.ts';
import type { Tally } from './tally.ts';
import { ClauseViolation, type ServerErrorSeen } from './violation.ts';
import { PriorVersions } from './prior-versions.ts';
import { journalEntry } from './judge-record.ts';

export const CASE_LABEL = 'svc-conformance/case';

const INFRA_STATUSES = new Set([500, 502, 503]);
/** Retries of a read that answered 500, 502 or 503: three answers alike make a repeatable one. */
const READ_RETRIES = 2;

export class CaseContext {
  readonly histories = new Map<string, History>();
  readonly uids = new Map<string, string>();
  readonly writeRvs = new Set<string>();
  /** Every resourceVersion the target returned in this case, for building an unknown one. */
  readonly rvsSeen = new Set<string>();
  readonly namespaces: string[] = [];
  /** Those of `namespaces` leased from the run's pool (returned, not deleted, when the case ends). */
  readonly leased: string[] = [];
  /** Object resourceVersions of earlier lessees of the namespaces this case reused (`Lease.priorVersions`). */
  readonly priorVersions = new PriorVersions();
  /**
   * Requests made before the case for it, shown first in its reproduction: the creation of a pooled
   * namespace it reused, so the curl script still runs on a target of its own.
   */
  readonly setup: Exchange[] = [];
  /** The 5xx answers this case handed to its judges, in order. */
  readonly serverErrors: ServerErrorSeen[] = [];
  readonly caseId: string;
  /**
   * Failures the expectations file excuses for this check: the case notes the first such failure and
   * goes on, so the steps after it are still judged (docs/partial-targets.md); a later failure that is
   * not excused carries it, and otherwise the check reports it when its cases are done.
   */
  isExcused?: (failure: Judgement) => boolean;
  private excused: ClauseViolation | undefined;
  /**
   * Steps of the case's readable description begun so far, for checks whose steps are sent one by one
   * (`step`): a failure page then lists the steps that were sent, not the later ones.
   */
  private stepsBegun: number | undefined;
  private readonly startSeq: number;
  private lastWriteSent = 0;

  /** @param caseStem tells the cases of concurrently running checks apart (the case label's value). */
  constructor(
    readonly env: CheckEnv,
    readonly tally: Tally,
    caseNumber: number,
    caseStem?: string,
  ) {
    this.caseId = caseStem === undefined ? `${env.runId}-${caseNumber}` : `${env.runId}-${caseStem}-${caseNumber}`;
    this.startSeq = env.transcript.lastSeq();
  }

  /**
   * Suite clock when the latest write was sent: the earliest moment the target can have stamped it.
   * History snapshots carry this time, so "may the target have dropped this version yet?" (rest:6.1.4)
   * errs towards allowing a 410, never towards failing a target whose clock ran ahead of our ack.
   */
  get writeSentAtMs(): number {
    return this.lastWriteSent;
  }

  get learned(): LearnedValues {
    return { uids: this.uids, writeRvs: this.writeRvs };
  }

  history(res: string): History {
    let h = this.histories.get(res);
    if (!h) {
      h = emptyHistory(this.env.now());
      this.histories.set(res, h);
    }
    return h;
  }

  setHistory(res: string, h: History): void {
    this.histories.set(res, h);
  }

  /** Labels every object of this case carries: the run label (safety) and the case label (scope). */
  get ownLabels(): Record<string, string> {
    return { [this.env.profile.runLabel]: this.env.runId, [CASE_LABEL]: this.caseId };
  }

  /**
   * Every request goes through here (a repeatable 5xx is an answer, not an outage). A 500,
   * 502 or 503 to a read is retried twice; when every attempt answered the same status with a
   * well-formed (JSON) body, that answer goes to the judges, who fail the request's clause with it
   * shown. An answer that changes back is used as it is (a transient 503 passes); one that keeps
   * changing, that no JSON body explains (a proxy's error page), or that carries Retry-After, is
   * infrastructure trouble.
   * A write is not retried here (a repeated write changes what is observed): its well-formed 5xx goes
   * to the judges too, marked unrepeated, and runner/run-check.ts replays the whole case before such
   * a failure stands. 504 has clauses of its own (rest:7/504) and is always the judges'.
   */
  async send(req: TargetRequest): Promise<TargetResponse> {
    if (req.method !== 'GET') this.lastWriteSent = this.env.now();
    const seen: number[] = [];
    for (let attempt = 0; ; attempt++) {
      const r = await this.env.target.send(req);
      if (!INFRA_STATUSES.has(r.status)) return r;
      seen.push(r.status);
      if (req.method === 'GET' && attempt < READ_RETRIES) {
        await this.env.sleep(100 * 2 ** attempt);
        continue;
      }
      // A Retry-After says "unavailable for now" (RFC 9110 15.6.4): overload, however often it comes.
      if (seen.every((s) => s === r.status) && r.json !== undefined && r.headers['retry-after'] === undefined) {
        this.serverErrors.push({ request: `${req.method} ${req.path}`, status: r.status, repeated: req.method === 'GET', sent: req });
        return r;
      }
      throw new InfrastructureError(`${req.method} ${req.path} answered ${seen.join(', ')}: ${r.bodyText.slice(0, 200)}`);
    }
  }

  /**
   * Records every judgement that did not fail; throws with all failures and this case's transcript (and
   * evidence) if any failed. `pages`: the seqs of the pages a paged list's judgements speak of (AnswersJudged).
   */
  judge(js: readonly Judgement[], evidence?: unknown, answers: { readonly pages?: readonly number[] } = {}): void {
    const failures = js.filter((j) => j.verdict === 'fail');
    const entry = this.tally.journal.push(journalEntry(js, this.tally.blobs)) - 1;
    // The same answers' other judgements stand whatever failed beside them: a malformed verbose line
    // does not unjudge the status code it came with.
    for (const j of js) if (j.verdict !== 'fail') this.tally.add(j);
    if (failures.length > 0) {
      const v = new ClauseViolation(
        failures,
        [...(this.env.backgroundWrites?.setup ?? []), ...this.setup, ...this.env.transcript.since(this.startSeq)],
        evidence,
        [...this.serverErrors],
        {
          judged: this.env.transcript.lastSeq(),
          ...answers,
        },
      );
      if (this.stepsBegun !== undefined) v.stepsSent = this.stepsBegun;
      v.journalEntry = entry;
      const excused = this.isExcused;
      if (excused === undefined || !failures.every((f) => excused(f))) {
        if (this.excused !== undefined) v.excusedEarlier = this.excused;
        throw v;
      }
      this.excused ??= v;
    }
  }

  /** Runs the case's described steps in order, counting each as begun (see `stepsBegun`). */
  async stepByStep<T>(steps: readonly T[], run: (step: T) => Promise<void>): Promise<void> {
    for (const s of steps) {
      this.stepsBegun = (this.stepsBegun ?? 0) + 1;
      await run(s);
    }
  }

  /** The first excused failure the case went on past, if any (reported when the check ends). */
  excusedFailure(): ClauseViolation | undefined {
    return this.excused;
  }
}

/**
 * Pooled namespaces go back to the pool, emptied of the case's objects; a namespace the case made for
 * itself is deleted, which removes what the case made in it (best effort: the run cleanup retries).
 */
export async function releaseCaseNamespaces(cx: CaseContext): Promise<void> {
  const rt = resourceTypes(cx.env.profile).namespaces;
  for (const ns of cx.namespaces) {
    try {
      if (cx.leased.includes(ns)) await cx.env.namespacePool!.release(ns, cx.env.exchangeSink);
      else await cx.env.target.send({ method: 'DELETE', path: objectPath(rt, ns) });
    } catch {
      // The run-level cleanup deletes every namespace of the run again at exit.
    }
  }
}

/**
 * A request a case needs in place before it judges anything (an object to list, to update, to be
 * refused): its answer, or, when not 2xx, the case ends as the check's setup error, not a verdict.
 */
export async function expectOk(cx: CaseContext, req: TargetRequest, what: string): Promise<TargetResponse> {
  const r = await cx.send(req);
  if (r.status < 200 || r.status > 299) throw new Error(`setup: ${what} answered ${r.status}: ${r.bodyText.slice(0, 200)}`);
  return r;
}
