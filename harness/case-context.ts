/**
 * One test case against the target: the namespaces it created, what the model learned, and the
 * judge that records verdicts and stops the case at the first failure (so fast-check can shrink).
 */
import { emptyHistory, type History } from '../reference/history.ts';
import type { Judgement } from '../reference/judgement.ts';
import type { LearnedValues } from '../reference/envelope-rules.ts';
import type { CheckEnv } from './check.ts';
import { InfrastructureError, type Exchange, type TargetRequest, type TargetResponse } from './exchange.ts';
import type { Tally } from './tally.ts';
import { ClauseViolation } from './violation.ts';

export const CASE_LABEL = 'svc-conformance/case';

const INFRA_STATUSES = new Set([500, 502, 503]);

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
  readonly priorVersions = new Set<string>();
  /**
   * Requests made before the case for it, shown first in its reproduction: the creation of a pooled
   * namespace it reused, so the curl script still runs on a target of its own.
   */
  readonly setup: Exchange[] = [];
  readonly caseId: string;
  private readonly startSeq: number;
  private lastWriteSent = 0;

  /** @param caseStem tells the cases of concurrently running checks apart (the case label's value). */
  constructor(readonly env: CheckEnv, readonly tally: Tally, caseNumber: number, caseStem?: string) {
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
   * 500, 502 and 503 belong to no clause: they are infrastructure trouble (DESIGN.md oracle rules).
   * Reads are retried a little; a write that got one may or may not have happened, so the case ends
   * as an error rather than guessing. 504 is left to the judges (rest:7/504).
   */
  async send(req: TargetRequest): Promise<TargetResponse> {
    if (req.method !== 'GET') this.lastWriteSent = this.env.now();
    for (let attempt = 0; ; attempt++) {
      const r = await this.env.target.send(req);
      if (!INFRA_STATUSES.has(r.status)) return r;
      if (req.method !== 'GET' || attempt >= 2) {
        throw new InfrastructureError(`${req.method} ${req.path} answered ${r.status}: ${r.bodyText.slice(0, 200)}`);
      }
      await this.env.sleep(100 * 2 ** attempt);
    }
  }

  /**
   * The request under test (issue 12): like send(), but a 500, 502 or 503 that comes back the same on
   * every retry with a well-formed (JSON) body is the target's answer and goes to the judges; only an
   * answer that changes or cannot be read is infrastructure trouble. Writes are not retried.
   */
  async sendUnderTest(req: TargetRequest): Promise<TargetResponse> {
    if (req.method !== 'GET') this.lastWriteSent = this.env.now();
    const seen: number[] = [];
    for (let attempt = 0; ; attempt++) {
      const r = await this.env.target.send(req);
      if (!INFRA_STATUSES.has(r.status)) return r;
      seen.push(r.status);
      if (req.method === 'GET' && attempt < 2) {
        await this.env.sleep(100 * 2 ** attempt);
        continue;
      }
      if (seen.every((s) => s === r.status) && r.json !== undefined) return r;
      throw new InfrastructureError(`${req.method} ${req.path} answered ${seen.join(', ')}: ${r.bodyText.slice(0, 200)}`);
    }
  }

  /** Records every judgement; throws with all failures and this case's transcript (and evidence) if any failed. */
  judge(js: readonly Judgement[], evidence?: unknown): void {
    const failures = js.filter((j) => j.verdict === 'fail');
    if (failures.length > 0) throw new ClauseViolation(failures, [...this.setup, ...this.env.transcript.since(this.startSeq)], evidence);
    for (const j of js) this.tally.add(j);
  }
}
