/**
 * Request economy: what each verdict cost the target, for the run and per check.
 * A verdict is a clause decided by the run: passed, failed, unspecified or inconclusive (skipped,
 * notChecked and error decide nothing). Per check, its verdicts are the distinct clauses its records
 * decided; a clause two checks decided counts once for the run and once for each check. A check that
 * sent requests and decided nothing is listed by name: its requests are the first to question.
 */
/** The parts of the runner's records and clause results (runner/results.ts) counted here. */
interface CheckRecord {
  readonly check: string;
  readonly clause: string;
  readonly verdict: string;
}
interface ClauseResult {
  readonly status: string;
}
/**
 * The parts of a check's and a run's footprint (harness/case/footprint.ts) counted here: structural, so
 * the footprint, which carries a RequestEconomy, and this file do not import each other.
 */
interface Counted {
  readonly requests: Readonly<Record<string, number>>;
  readonly bytesSent: number;
  readonly bytesReceived: number;
}
interface CountedRun extends Counted {
  readonly checks: readonly (Counted & { readonly check: string })[];
}

const DECIDING_RECORDS: ReadonlySet<string> = new Set(['pass', 'fail', 'unspecified', 'inconclusive']);
const DECIDED_CLAUSES: ReadonlySet<string> = new Set(['passed', 'failed', 'unspecified', 'inconclusive']);

export interface CheckEconomy {
  readonly check: string;
  readonly requests: number;
  readonly bytes: number;
  readonly verdicts: number;
}

export interface RequestEconomy {
  readonly verdicts: number;
  readonly requests: number;
  /** Sent and received. */
  readonly bytes: number;
  /** Received alone: what a run costs a cluster's outbound side (and the reader) most. */
  readonly bytesReceived: number;
  /** Absent when the run decided nothing. */
  readonly requestsPerVerdict?: number;
  readonly bytesPerVerdict?: number;
  readonly bytesReceivedPerVerdict?: number;
  /** Checks that sent requests, the most requests per verdict first (a check with none decided first of all). */
  readonly checks: readonly CheckEconomy[];
}

const requestsOf = (f: Pick<Counted, 'requests'>): number => Object.values(f.requests).reduce((a, b) => a + b, 0);

export function requestEconomy(records: readonly CheckRecord[], clauses: readonly ClauseResult[], footprint: CountedRun): RequestEconomy {
  const decidedBy = new Map<string, Set<string>>();
  for (const r of records) {
    if (!DECIDING_RECORDS.has(r.verdict)) continue;
    let set = decidedBy.get(r.check);
    if (!set) decidedBy.set(r.check, (set = new Set()));
    set.add(r.clause);
  }
  const verdicts = clauses.filter((c) => DECIDED_CLAUSES.has(c.status)).length;
  const requests = requestsOf(footprint);
  const bytes = footprint.bytesSent + footprint.bytesReceived;
  const perVerdict = (c: CheckEconomy) => (c.verdicts === 0 ? Infinity : c.requests / c.verdicts);
  const checks = footprint.checks
    .map(
      (c): CheckEconomy => ({
        check: c.check,
        requests: requestsOf(c),
        bytes: c.bytesSent + c.bytesReceived,
        verdicts: decidedBy.get(c.check)?.size ?? 0,
      }),
    )
    .filter((c) => c.requests > 0)
    .sort((a, b) => perVerdict(b) - perVerdict(a) || b.requests - a.requests || a.check.localeCompare(b.check));
  return {
    verdicts,
    requests,
    bytes,
    bytesReceived: footprint.bytesReceived,
    ...(verdicts > 0
      ? {
          requestsPerVerdict: round1(requests / verdicts),
          bytesPerVerdict: Math.round(bytes / verdicts),
          bytesReceivedPerVerdict: Math.round(footprint.bytesReceived / verdicts),
        }
      : {}),
    checks,
  };
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/**
 * One line for terminals and the bench: the run's figures, the checks that cost most requests per
 * verdict, and those that cost most bytes (a few checks' large bodies were most of a run's bytes).
 */
export function economyLine(e: RequestEconomy, worst = 3): string {
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const head =
    e.requestsPerVerdict === undefined
      ? `request economy: ${e.requests} requests and no verdict`
      : `request economy: ${e.requestsPerVerdict} requests and ${kib(e.bytesPerVerdict!)} per verdict (${e.requests} requests, ${mib(e.bytesReceived)} received, ${e.verdicts} verdicts)`;
  const costly = e.checks
    .slice(0, worst)
    .map((c) => `${c.check} ${c.verdicts === 0 ? `${c.requests} for none` : `${round1(c.requests / c.verdicts)}`}`);
  const heavy = [...e.checks]
    .sort((a, b) => b.bytes - a.bytes || a.check.localeCompare(b.check))
    .slice(0, worst)
    .filter((c) => c.bytes >= MIB)
    .map((c) => `${c.check} ${mib(c.bytes)}`);
  return [
    head,
    ...(costly.length > 0 ? [`most per verdict: ${costly.join(', ')}`] : []),
    ...(heavy.length > 0 ? [`most bytes: ${heavy.join(', ')}`] : []),
  ].join('; ');
}

/** Below this a check's bytes are not named in the economy line. */
const MIB = 1024 * 1024;
