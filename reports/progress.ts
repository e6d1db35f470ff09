/**
 * The live progress of a run on stderr: the target and its version first, then for every check as it
 * ends done/total, elapsed time and an estimate of the time left; failures and errors with one line
 * each (the clause, or the reason) as they happen; at the end where the report is.
 *
 * On a terminal (a TTY that reports its width) a status line at the bottom is redrawn every second
 * (elapsed, estimate, the checks running) and every other line is printed above it. Elsewhere (CI
 * logs, a pipe, a terminal that reports 0 columns) every line is plain, with no control character,
 * and a line saying what still runs is printed when nothing else was for HEARTBEAT_MS.
 *
 *   [ 12/150 0:42 ~3:10 left] rest-watch watch-resume: ok
 *   [ 13/150 0:44 ~3:05 left] rest-paging paging-snapshot: FAIL rest:4.4.3
 *   [ 14/150 0:45 ~3:04 left] rest-apply apply-points: known failure rest:4.7.5 (expectations file)
 *
 * A known failure (excused by the expectations file) is never printed as FAIL. A component the run was
 * not given (harness/case/not-selected.ts) gets one line, at its first check, not one per check.
 */
import path from 'node:path';
import { checkOutcomeKind, type Verdict } from '../runner/verdicts.ts';
import { isNotSelected } from '../harness/case/index.ts';

export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export type CheckOutcome =
  | { readonly kind: 'ok' }
  | { readonly kind: 'fail'; readonly clauses: readonly string[]; readonly known?: readonly string[] }
  | { readonly kind: 'known'; readonly clauses: readonly string[] }
  | { readonly kind: 'error'; readonly reason: string }
  | { readonly kind: 'not checked'; readonly reason?: string }
  | { readonly kind: 'not run' };

export interface ProgressOptions {
  readonly now?: () => number;
  /** Redraw period of the status line on a terminal. */
  readonly tickMs?: number;
  readonly heartbeatMs?: number;
}

const HEARTBEAT_MS = 30_000;

/** 75_000 -> '1:15'; 3_725_000 -> '1:02:05'. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/**
 * Time left, from the pace so far: checks differ a lot in length, so this is a rough figure, and
 * none is given before the first check ended, nor after the last.
 */
export function estimateLeftMs(elapsedMs: number, done: number, total: number): number | undefined {
  // The first few checks to end say little of the rest (they ran beside slower ones): wait for 5%.
  if (done < Math.min(total - 1, Math.max(1, Math.ceil(total * 0.05))) || done <= 0 || total <= done) return undefined;
  return (elapsedMs / done) * (total - done);
}

/** One line of a reason: its first line, without a stack, shortened. */
export function oneLineReason(text: string, max = 200): string {
  const first = (text.split('\n').find((l) => l.trim() !== '' && !/^\s+at /.test(l)) ?? text).trim();
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

/**
 * What one check came to, from its records (runner/verdicts.ts): failed clauses, an error with its
 * reason, nothing judged. `known` tells a failure the expectations file excuses: a check whose every
 * failure is excused is a known failure, not a FAIL.
 */
export function outcomeOfRecords<R extends { readonly clause: string; readonly verdict: Verdict; readonly note?: string }>(
  records: readonly R[],
  thrown?: string,
  known: (r: R) => boolean = () => false,
): CheckOutcome {
  const kind = checkOutcomeKind(records.map((r) => r.verdict));
  if (kind === 'failed') {
    const failures = records.filter((r) => r.verdict === 'fail');
    const excused = [...new Set(failures.filter(known).map((r) => r.clause))];
    const beyond = [...new Set(failures.filter((r) => !known(r)).map((r) => r.clause))];
    if (beyond.length === 0) return { kind: 'known', clauses: excused };
    return { kind: 'fail', clauses: beyond, ...(excused.length > 0 ? { known: excused } : {}) };
  }
  const errored = records.find((r) => r.verdict === 'error');
  if (errored !== undefined) return { kind: 'error', reason: `${errored.clause}: ${errored.note ?? 'error'}` };
  if (thrown !== undefined) return { kind: 'error', reason: thrown };
  if (kind === 'notChecked') return { kind: 'not checked', ...(records[0]!.note !== undefined ? { reason: records[0]!.note } : {}) };
  return { kind: 'ok' };
}

export function outcomeText(o: CheckOutcome): string {
  switch (o.kind) {
    case 'ok':
      return 'ok';
    case 'fail':
      return `FAIL ${o.clauses.join(', ')}${o.known !== undefined ? `; known failure ${o.known.join(', ')}` : ''}`;
    case 'known':
      return `known failure ${o.clauses.join(', ')} (expectations file)`;
    case 'error':
      return `ERROR ${oneLineReason(o.reason)}`;
    case 'not checked':
      return o.reason === undefined ? 'not checked' : `not checked (${oneLineReason(o.reason, 120)})`;
    case 'not run':
      return 'not run (run stopped)';
  }
}

export class Progress {
  private readonly now: () => number;
  private readonly live: boolean;
  private readonly started: number;
  private total = 0;
  private done = 0;
  private readonly running = new Set<string>();
  private statusShown = false;
  private lastPrint: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private firstCheckAt: number | undefined;
  /** The not-selected components already named (one line each). */
  private readonly notSelected = new Set<string>();

  constructor(
    private readonly stream: ProgressStream,
    private readonly o: ProgressOptions = {},
  ) {
    this.now = o.now ?? Date.now;
    this.started = this.now();
    this.lastPrint = this.started;
    // A terminal that reports no width (some CI "TTYs", `script` without a size) gets plain lines:
    // cutting to a guessed width cut every line to 20 characters.
    this.live = stream.isTTY === true && (stream.columns ?? 0) > 0;
  }

  /** Printed first: what is being tested. */
  target(server: string, version: string | undefined, detail?: string): void {
    this.print(
      `svc-conformance: target ${server}${version !== undefined ? `, version ${version}` : ', version not reported'}${detail !== undefined ? ` (${detail})` : ''}`,
    );
  }

  /** Any other line of the run, printed above the status line. */
  line(text: string): void {
    this.print(text);
  }

  begin(total: number): void {
    this.total = total;
    if (this.live && this.timer === undefined) {
      this.timer = setInterval(() => this.redraw(), this.o.tickMs ?? 1000);
      this.timer.unref();
    } else if (!this.live && this.timer === undefined) {
      this.timer = setInterval(() => this.heartbeat(), Math.min(this.o.heartbeatMs ?? HEARTBEAT_MS, 5000));
      this.timer.unref();
    }
    this.redraw();
  }

  checkStarted(id: string): void {
    this.firstCheckAt ??= this.now();
    this.running.add(id);
    this.redraw();
  }

  checkDone(suite: string, id: string, outcome: CheckOutcome): void {
    this.running.delete(id);
    this.done++;
    if (outcome.kind === 'not checked' && isNotSelected(outcome.reason)) {
      // The last check still gets its line: a plain log must not seem to stop short of the total.
      if (this.notSelected.has(outcome.reason!))
        return this.done < this.total ? this.redraw() : this.print(`[${this.counter()} ${this.times()}] ${suite} ${id}: not selected`);
      this.notSelected.add(outcome.reason!);
      return this.print(`[${this.counter()} ${this.times()}] ${suite}: ${outcome.reason!} (its checks are not listed one by one)`);
    }
    this.print(`[${this.counter()} ${this.times()}] ${suite} ${id}: ${outcomeText(outcome)}`);
  }

  /** Stops the status line; `reportsDir` and `index` say where to look. */
  end(where?: { readonly index: string }): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.clearStatus();
    if (where !== undefined) this.stream.write(`svc-conformance: open ${where.index} (${clock(this.now() - this.started)} in all)\n`);
  }

  private counter(): string {
    return `${String(this.done).padStart(String(this.total).length)}/${this.total}`;
  }

  private times(): string {
    const elapsed = this.now() - this.started;
    // The pace counts from the first check's start: the target probe is no check's.
    const left = estimateLeftMs(this.now() - (this.firstCheckAt ?? this.started), this.done, this.total);
    return `${clock(elapsed)}${left === undefined ? '' : ` ~${clock(left)} left`}`;
  }

  private print(text: string): void {
    this.clearStatus();
    this.stream.write(`${text}\n`);
    this.lastPrint = this.now();
    this.redraw();
  }

  private statusText(): string {
    const running = [...this.running];
    const names =
      running.length > 0
        ? ` · running ${running.slice(0, 3).join(', ')}${running.length > 3 ? ` +${running.length - 3}` : ''}`
        : this.done === 0
          ? ' · starting'
          : '';
    return `[${this.counter()} ${this.times()}]${names}`;
  }

  private redraw(): void {
    if (!this.live || this.total === 0 || this.timer === undefined) return;
    const width = Math.max(1, (this.stream.columns ?? 80) - 1);
    const text = this.statusText();
    this.stream.write(`\r\u001b[K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
    this.statusShown = true;
  }

  private clearStatus(): void {
    if (!this.statusShown) return;
    this.stream.write('\r\u001b[K');
    this.statusShown = false;
  }

  private heartbeat(): void {
    if (this.total === 0 || this.now() - this.lastPrint < (this.o.heartbeatMs ?? HEARTBEAT_MS)) return;
    const running = [...this.running];
    this.print(
      `[${this.counter()} ${this.times()}] still running${running.length > 0 ? `: ${running.slice(0, 5).join(', ')}${running.length > 5 ? ` +${running.length - 5}` : ''}` : ''}`,
    );
  }
}

/** A path as a person types it from here: relative below the working folder, absolute elsewhere. */
export function shownPath(file: string, cwd = process.cwd()): string {
  const rel = path.relative(cwd, file);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
}
