import { describe, expect, it } from 'vitest';
import { toTerminalSummary } from '../../../reports/text.ts';
import { familyOf } from './fixtures.ts';
import { HOSTILE, sampleRun } from './sample-run.ts';

describe('toTerminalSummary', () => {
  const out = toTerminalSummary(sampleRun(), familyOf, { color: false, reportsDir: 'results/' });
  const lines = out.split('\n');

  it('prints one aligned line per area', () => {
    expect(lines[0]).toBe('rest:4.4 paging             0 passed  2 failed  1 unspecified  0 not checked');
    expect(lines[1]).toBe('rest:4.5 resource versions  1 passed  0 failed  0 unspecified  0 not checked');
    expect(lines[2]).toBe('node:2.2 defaults           0 passed  0 failed  0 unspecified  0 not checked  1 error');
    expect(lines[3]).toBe('node:1 overview             0 passed  0 failed  0 unspecified  0 not checked  1 informative');
  });

  it('prints each failure with expected, observed and replay', () => {
    const at = lines.indexOf('Failures (2):');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 5)).toEqual([
      '  FAIL rest:4.4.3  continue token resumes the list',
      '    expected: status 200 with items [b, c]',
      '    observed: status 200 with items [c]',
      '    replay:   npx svc-conformance run --seed 42 --path 3:1 --check paging-continue',
    ]);
  });

  it('ends with the verdict and the reports folder', () => {
    expect(out).toMatch(
      /\nVerdict: nonconformant: 2 failures, 4 clauses judged, against https:\/\/127\.0\.0\.1:6443 \(kubeconfig \/home\/u\/\.kube\/config, context prod\) \(2 failed, 1 passed, 1 error, 1 unspecified, 0 inconclusive, 0 skipped, 0 not checked, 1 informative; profile svc, seed 42\)\nReports written to results\/\n$/,
    );
  });

  it('colours only when asked', () => {
    expect(out).not.toContain('\u001b');
    expect(toTerminalSummary(sampleRun(), familyOf, { color: true })).toContain('\u001b[1;31mVerdict: nonconformant\u001b[0m');
  });

  it('never passes a target escape sequence through', () => {
    const hostile = toTerminalSummary(sampleRun({ hostile: true }), familyOf, { color: false });
    expect(HOSTILE).toContain('\u001b');
    expect(hostile).not.toContain('\u001b');
    expect(hostile).toContain('\\u001b[2J');
  });

  it('names known failures, and a listed clause that passed on no input behind its entry as not exercised, never as stale', () => {
    const known = sampleRun({
      expectations: {
        knownFailures: [
          { clause: 'rest:4.4.6', reason: 'r' },
          { clause: 'rest:4.5/list/unset/limit-continue/other', reason: 'r' },
        ],
      },
    });
    const text = toTerminalSummary(known, familyOf, { color: false });
    expect(text).toContain('Failures (1):');
    expect(text).toContain('Known failures (1), excused by the expectations file (not counted as failures): rest:4.4.6');
    // Failures beyond expectations first, the known one apart, never counted as failed.
    expect(text).toMatch(
      /\nVerdict: nonconformant: 1 failure, \d+ clauses? judged, against .* \(1 failed beyond expectations, 1 known failure, 1 passed, /,
    );
    expect(text).toMatch(/^rest:4\.4 paging +0 passed {2}1 failed {2}1 known {2}/m);
    expect(text).toContain(
      'Listed but not exercised in this run (kept; see the notes in summary.json): rest:4.5/list/unset/limit-continue/other',
    );
    expect(text).not.toMatch(/remove from the expectations file/);
  });

  it('names every clause that errored with its check and reason ("ERROR" alone said nothing)', () => {
    const out = toTerminalSummary(sampleRun(), familyOf, { color: false });
    expect(out).toContain('Errors, no verdict (1):\n  node:2.2/maxPods (some-check): loader timed out');
  });
});
