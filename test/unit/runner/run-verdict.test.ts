// Why: the verdict and exit code of a run are decided by one function, and docs/verdict-rules.md states
// its rules as a table. Every row of that table is read here and checked against the function, so the
// page and the code cannot drift apart; a failure found must never read as "not tested".
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decideRun, earlyEndLine, exitCodeOf, type RunEnd, type VerdictFacts } from '../../../runner/run-verdict.ts';

const page = readFileSync(new URL('../../../docs/verdict-rules.md', import.meta.url), 'utf8');

interface Row {
  readonly n: string;
  readonly facts: VerdictFacts;
  readonly verdict: string;
  readonly exit: number;
  readonly adds: string;
}

const ENDS: Readonly<Record<string, RunEnd | undefined>> = {
  finished: undefined,
  'timed out': { kind: 'run timeout', line: 'run timeout after 9 s: 3 of 5 checks did not finish' },
  'ended early': { kind: 'early end', line: 'run ended early: precondition failed: no clean namespace' },
  SIGTERM: { kind: 'SIGTERM', line: 'SIGTERM after 4 s: 2 of 5 checks did not finish' },
  SIGINT: { kind: 'SIGINT', line: 'SIGINT after 4 s: 2 of 5 checks did not finish' },
};

function rows(): Row[] {
  const yes = (cell: string) => {
    if (cell !== 'yes' && cell !== 'no') throw new Error(`not yes or no: ${cell}`);
    return cell === 'yes';
  };
  return page
    .split('\n')
    .filter((l) => /^\| \d+ \|/.test(l))
    .map((l) => {
      const [n, failure, little, errors, ended, verdict, exit, adds] = l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      if (!(ended! in ENDS)) throw new Error(`row ${n}: unknown ending ${ended}`);
      const end = ENDS[ended!];
      const facts: VerdictFacts = {
        regressions: yes(failure!) ? ['rest:4.2/verbose'] : [],
        notTested: yes(little!) ? ['not tested: only 1 of the 9 clauses ...'] : [],
        errors: yes(errors!),
        end,
      };
      return { n: n!, facts, verdict: verdict!, exit: Number(exit), adds: adds! };
    });
}

describe('docs/verdict-rules.md, row by row', () => {
  const table = rows();

  it('has the rows it documents (a page that lost its table would check nothing)', () => {
    expect(table.map((r) => r.n)).toEqual(Array.from({ length: 16 }, (_, i) => String(i + 1)));
  });

  it.each(table.map((r) => [r.n, r] as const))('row %s', (_n, row) => {
    const d = decideRun(row.facts);
    expect(d.verdict).toBe(row.verdict);
    expect(d.exitCode).toBe(row.exit);
    expect(exitCodeOf(d.verdict, row.facts.end)).toBe(row.exit);
    expect(d.incomplete === undefined ? '' : `incomplete: ${d.incomplete.because.join(', ')}`).toBe(row.adds);
  });
});

describe('decideRun', () => {
  it('a failure found in a run that judged too little: nonconformant, with the vacuity line kept beside it', () => {
    const d = decideRun({ regressions: ['rest:4.2/verbose'], errors: false, notTested: ['not tested: only 1 of the 9 clauses'] });
    expect(d).toEqual({
      verdict: 'nonconformant',
      exitCode: 1,
      notTested: [],
      incomplete: { because: ['judged too little'], lines: ['not tested: only 1 of the 9 clauses'] },
    });
  });

  it('a timed-out run with a failure says both why it is incomplete and the timeout line', () => {
    const d = decideRun({ regressions: ['rest:6.1.1'], errors: true, notTested: [], end: ENDS['timed out']! });
    expect(d.incomplete?.lines).toEqual([ENDS['timed out']!.line]);
  });

  it('without a failure, not tested and error are exit 3 and never conformant', () => {
    expect(decideRun({ regressions: [], errors: false, notTested: ['x'] })).toMatchObject({
      verdict: 'notTested',
      exitCode: 3,
      notTested: ['x'],
    });
    expect(decideRun({ regressions: [], errors: false, notTested: [], end: ENDS['ended early']! })).toMatchObject({
      verdict: 'error',
      exitCode: 3,
    });
  });
});

describe('earlyEndLine', () => {
  it('leads with the failures found before the early end, not with the deletion it looks like', () => {
    const broken = 'precondition failed: no clean namespace: the last 8 namespaces the run emptied still held objects it had deleted';
    expect(earlyEndLine(broken, [])).toBe(`run ended early: ${broken}`);
    const line = earlyEndLine(broken, ['rest:2.2', 'rest:4.1/get-namespaced-collection']);
    expect(line).toBe(
      `run ended early, nonconformant: failed rest:2.2, rest:4.1/get-namespaced-collection; then ${broken} (a failure above may be its cause)`,
    );
    expect(
      earlyEndLine(
        broken,
        Array.from({ length: 10 }, (_, i) => `rest:${i}`),
      ),
    ).toMatch(/failed rest:0, .*rest:7 and 2 more; then/);
  });
});
