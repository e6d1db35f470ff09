// Why: a green run against the suite's own embedded server must never pass
// for a green run against the user's cluster, so every report names what it tested; a failure the
// expectations file excuses is "known", counted and shown apart from "failed" everywhere; and a
// component the run was not given is one line, not one line per check or clause.
import { describe, expect, it } from 'vitest';
import { buildRunResult, NO_CHECK_RAN } from '../../../reports/aggregate.ts';
import { toSummary } from '../../../reports/summary-json.ts';
import { toMarkdownSummary } from '../../../reports/markdown.ts';
import { toHtml } from '../../../reports/html.ts';
import { toJUnitXml } from '../../../reports/junit.ts';
import { toTerminalSummary } from '../../../reports/text.ts';
import { buildMatrix, toMatrixMarkdown } from '../../../reports/matrix.ts';
import { toMatrixHtml } from '../../../reports/matrix-html.ts';
import { gapGroups } from '../../../reports/gaps.ts';
import { invocationOf, targetIdentity } from '../../../reports/run-identity.ts';
import { outcomeOfRecords, outcomeText, Progress } from '../../../reports/progress.ts';
import { embeddedNotice } from '../../../scripts/embedded-notice.ts';
import { LOADER_NOT_SELECTED, DAEMON_NOT_SELECTED } from '../../../harness/case/not-selected.ts';
import { emptyFootprint, sumFootprints } from '../../../harness/case/index.ts';
import { catalog, cx, familyOf, fakeId, rec } from './fixtures.ts';
import { sampleRun } from './sample-run.ts';
import { summaryValidator } from './summary-validator.ts';
import type { Clause } from '../../../reference/catalog/types.ts';

const embeddedPlan = { target: { kind: 'embedded' as const, faults: [], variations: [], continueTtlMs: 1, historyWindowMs: 1 } };
const externalPlan = (o: { kubeconfig?: string; context?: string } = {}) => ({ target: { kind: 'external' as const, hooks: {}, ...o } });

describe('what was tested: the target named in every report', () => {
  it('an embedded run says "embedded reference server" in summary.json, summary.md, index.html and JUnit', () => {
    const run = sampleRun({ embedded: true });
    const summary = toSummary(run);
    expect(summary.target).toMatchObject({ kind: 'embedded', description: 'embedded reference server', reportedVersion: 'v1.24.0' });
    expect(summaryValidator()(JSON.parse(JSON.stringify(summary)))).toBe(true);
    expect(toMarkdownSummary(run).split('\n')[0]).toBe(
      '## ❌ svc-conformance: nonconformant: 2 failures, 4 clauses judged · embedded reference server',
    );
    expect(toHtml(run, familyOf)).toContain('<span class="target t-embedded">embedded reference server</span></div>');
    const junit = toJUnitXml(run, familyOf);
    expect(junit).toContain('<property name="target" value="embedded reference server"/>');
    expect(junit).toContain('<property name="target.kind" value="embedded"/>');
    expect(toTerminalSummary(run, familyOf, { color: false })).toMatch(
      /\nVerdict: nonconformant: 2 failures, 4 clauses judged, against the embedded reference server \(/,
    );
  });

  it('an external run names its server with the kubeconfig and context, never "embedded"', () => {
    const run = sampleRun();
    expect(toSummary(run).target.kind).toBe('external');
    for (const text of [
      toMarkdownSummary(run),
      toHtml(run, familyOf),
      toJUnitXml(run, familyOf),
      toTerminalSummary(run, familyOf, { color: false }),
    ]) {
      expect(text).toContain('https://127.0.0.1:6443 (kubeconfig /home/u/.kube/config, context prod)');
      expect(text).not.toContain('embedded');
    }
  });

  it('targetIdentity: faults named for the embedded server; the kubeconfig and context for an external one; credentials in a URL scrubbed', () => {
    expect(
      targetIdentity(
        { target: { ...embeddedPlan.target, faults: ['ignore-exact'] } } as never,
        'http://127.0.0.1:1',
        'embedded reference server',
        'v1.24.0',
      ),
    ).toEqual({
      kind: 'embedded',
      description: 'embedded reference server with fault ignore-exact',
      reportedVersion: 'v1.24.0',
    });
    expect(targetIdentity(externalPlan() as never, 'https://10.0.0.1:6443', 'kubeconfig /k (context prod)').description).toBe(
      'https://10.0.0.1:6443 (kubeconfig /k, context prod)',
    );
    expect(targetIdentity(externalPlan() as never, 'https://10.0.0.1:6443', '--server').description).toBe('https://10.0.0.1:6443');
    // A refused run never reached the target config: named from the plan.
    expect(targetIdentity(externalPlan({ context: 'c' }) as never, 'https://h:1').description).toBe(
      'https://h:1 (kubeconfig $KUBECONFIG or ~/.kube/config, context c)',
    );
    expect(targetIdentity(externalPlan() as never, 'https://u:secret@h:1').description).not.toContain('secret');
  });

  it('the invocation: the command line scrubbed, the selection with the options that chose it, the expectations files', () => {
    const plan = {
      selection: { chosen: [], selected: [{}, {}] },
      expectations: { files: ['e.yaml'], capabilities: {} },
      replayCommand: 'npx svc-conformance run',
    } as never;
    const i = invocationOf(plan, {
      suite: ['rest-watch'],
      focus: ['watch.*'],
      argv: ['run', '--hook', 'restart=curl -H "Authorization: Bearer s3cr3t" x', '--suite', 'rest-watch'],
    });
    expect(i.selection).toBe("2 checks (--suite rest-watch --focus 'watch.*')");
    expect(i.expectations).toEqual(['e.yaml']);
    expect(i.command).toMatch(/^svc-conformance run --hook /);
    expect(i.command).not.toContain('s3cr3t');
    const md = toMarkdownSummary({ ...sampleRun(), invocation: i });
    expect(md).toContain("Selection: 2 checks (--suite rest-watch --focus 'watch.*'). Expectations: `e.yaml`.");
    expect(toHtml({ ...sampleRun(), invocation: i }, familyOf)).toContain('expectations <code>e.yaml</code>');
  });

  it('the notice: no target option with KUBECONFIG set or ~/.kube/config present says what is tested and how to test the cluster; a target option or no cluster config says nothing', () => {
    const none = () => false;
    expect(embeddedNotice({}, { KUBECONFIG: '/k' }, none)).toBe(
      'svc-conformance: no target option given: testing its own embedded reference server, not your cluster (KUBECONFIG is set); to test that cluster: --kubeconfig "$KUBECONFIG"',
    );
    expect(embeddedNotice({}, { HOME: '/home/u' }, (p) => p === '/home/u/.kube/config')).toMatch(
      /\(\/home\/u\/\.kube\/config exists\); to test that cluster: --kubeconfig \/home\/u\/\.kube\/config$/,
    );
    expect(embeddedNotice({ kubeconfig: '/k' }, { KUBECONFIG: '/k' }, none)).toBeUndefined();
    expect(embeddedNotice({ server: 'https://h' }, { KUBECONFIG: '/k' }, none)).toBeUndefined();
    expect(embeddedNotice({ context: 'c' }, { KUBECONFIG: '/k' }, none)).toBeUndefined();
    expect(embeddedNotice({}, { KUBECONFIG: '', HOME: '/home/u' }, none)).toBeUndefined();
  });
});

describe('known failures: a status of their own', () => {
  const knownRun = () => sampleRun({ expectations: { knownFailures: [{ clause: 'rest:4.4.6', reason: 'tokens never expire' }] } });

  it('totals: failed is the failures beyond expectations, known apart; their sum is still one per clause', () => {
    const run = knownRun();
    expect(run.totals).toMatchObject({ failed: 1, known: 1 });
    expect(Object.values(run.totals).reduce((a, b) => a + b, 0)).toBe(run.clauses.length);
    // The clause keeps its status (scripts reading clauses[].status see no change), flagged excused.
    expect(run.clauses.find((c) => c.id === 'rest:4.4.6')).toMatchObject({ status: 'failed', expectedFailure: true });
  });

  it('the HTML: a known badge, the row tagged known, the card collapsed after the failures beyond expectations', () => {
    const page = toHtml(knownRun(), familyOf);
    expect(page).toContain(
      '<span><span class="tag s-failed">1</span> failed</span><span><span class="tag s-known">1</span> known failure</span>',
    );
    expect(page).toMatch(/<tr class="row r-known" id="row-clause-rest_4\.4\.6">.*<td class="st">known failure<\/td>/);
    const start = page.indexOf('<h2 id="known-failures">');
    const known = page.slice(start, page.indexOf('<h2 ', start + 1));
    expect(known).toMatch(/^<h2 id="known-failures">Known failures \(1\)<\/h2>\n<details>/);
    expect(known).not.toMatch(/failed/);
    expect(page.indexOf('<h2 id="failures">')).toBeLessThan(page.indexOf('<h2 id="known-failures">'));
  });

  it('the terminal: the known one never under Failures, and the per-area line counts it as known', () => {
    const text = toTerminalSummary(knownRun(), familyOf, { color: false });
    const failures = text.slice(text.indexOf('Failures (1):'), text.indexOf('Known failures'));
    expect(failures).toContain('rest:4.4.3');
    expect(failures).not.toContain('rest:4.4.6');
    expect(text).toMatch(/^rest:4\.4 paging +0 passed {2}1 failed {2}1 known/m);
  });

  it('the live line of a check whose failures are all excused says "known failure", never FAIL; one beyond them still FAILs', () => {
    const records = [rec('rest:4.4.6', 'fail'), rec('rest:4.4.3', 'pass')];
    const excused = (r: { clause: string }) => r.clause === 'rest:4.4.6';
    expect(outcomeText(outcomeOfRecords(records, undefined, excused))).toBe('known failure rest:4.4.6 (expectations file)');
    expect(outcomeText(outcomeOfRecords([...records, rec('rest:4.4.3', 'fail')], undefined, excused))).toBe(
      'FAIL rest:4.4.3; known failure rest:4.4.6',
    );
    expect(outcomeText(outcomeOfRecords(records))).toBe('FAIL rest:4.4.6');
  });

  it('the matrix: a known failure is a known cell, not a failed one, and its row is not ranked as a failure', () => {
    const a = toSummary(knownRun());
    const b = toSummary(sampleRun());
    const m = buildMatrix([
      { dir: 'a', label: 'with expectations', summary: a },
      { dir: 'b', label: 'without', summary: b },
    ]);
    const row = m.rows.find((r) => r.id === 'rest:4.4.6')!;
    expect(row.cells.map((c) => c.status)).toEqual(['known', 'failed']);
    expect(m.columns[0]!.target).toBe('https://127.0.0.1:6443 (kubeconfig /home/u/.kube/config, context prod)');
    expect(toMatrixHtml(m)).toContain('class="s-known"');
    expect(toMatrixMarkdown(m)).toContain('[known](a/index.html#clause-rest_4.4.6)');
  });
});

describe('output in proportion', () => {
  // A run against an API server alone: every loader and daemon clause not checked for the same reason.
  const many = (n: number, prefix: string): Clause[] =>
    Array.from({ length: n }, (_, i) => ({
      id: fakeId(`${prefix}/f${i}`),
      doc: 'node',
      section: '2.2',
      summary: `field ${i}`,
      kind: 'normative' as const,
    }));
  const bigCatalog = [...catalog, ...many(40, 'node:2.2'), ...many(20, 'node:2.6')];
  const family = (id: string) =>
    id.startsWith('node:2.6') ? 'node:2.6 daemon' : id.startsWith('node:2.2/f') ? 'node:2.2 defaults' : familyOf(id);
  const run = buildRunResult({
    records: [
      rec('rest:4.4.3', 'pass'),
      ...many(40, 'node:2.2').map((c) => rec(c.id, 'notChecked', { check: 'nodeagent-every-field', note: LOADER_NOT_SELECTED })),
      ...many(20, 'node:2.6').map((c) => rec(c.id, 'notChecked', { check: 'daemon-flags', note: DAEMON_NOT_SELECTED })),
      rec('rest:4.4.6', 'notChecked', { note: 'needs --slow' }),
      rec('rest:4.5/list/unset/limit-continue/other', 'notChecked', { note: 'needs --slow' }),
    ],
    catalog: bigCatalog,
    profile: 'svc',
    seed: 1,
    server: 'https://h:6443',
    nodeagentLoader: null,
    target: { kind: 'external', description: 'https://h:6443 (kubeconfig /k, context c)' },
    startedAt: '2025-01-02T03:04:05.000Z',
    durationMs: 1000,
    version: '0',
    errors: [],
  });

  it('not-checked clauses grouped by reason, in catalog order', () => {
    expect(gapGroups(run.clauses).map((g) => [g.reason, g.clauses.length])).toEqual([
      ['needs --slow', 2],
      [NO_CHECK_RAN, 2],
      [LOADER_NOT_SELECTED, 40],
      [DAEMON_NOT_SELECTED, 20],
    ]);
  });

  it('each component not given is one line in the terminal, summary.md and the HTML; the other gaps one line per reason', () => {
    const texts = { terminal: toTerminalSummary(run, family, { color: false }), md: toMarkdownSummary(run), html: toHtml(run, family) };
    for (const [name, text] of Object.entries(texts)) {
      expect(
        text.split('\n').filter((l) => l.includes('--nodeagent-loader')),
        name,
      ).toHaveLength(1);
      expect(
        text.split('\n').filter((l) => l.includes('--controller-daemon')),
        name,
      ).toHaveLength(1);
    }
    expect(texts.terminal).toContain(`${LOADER_NOT_SELECTED} (1 check, 40 clauses not checked)`);
    expect(texts.md).toContain(`**${LOADER_NOT_SELECTED} (1 check, 40 clauses not checked)**`);
    expect(run.notSelected).toEqual([
      { reason: LOADER_NOT_SELECTED, checks: ['nodeagent-every-field'], clauses: 40 },
      { reason: DAEMON_NOT_SELECTED, checks: ['daemon-flags'], clauses: 20 },
    ]);
    expect(toSummary(run).notSelected).toEqual(run.notSelected);
    expect(texts.md).toContain('- `rest:4.4.6`, `rest:4.5/list/unset/limit-continue/other`: needs --slow');
    expect(texts.md.split('\n').length).toBeLessThan(40);
  });

  it('the HTML checks table: a component not given is one line, not a row per check of it', () => {
    const footprint = sumFootprints(['nodeagent-every-field', 'daemon-flags', 'crud'].map(emptyFootprint));
    const page = toHtml({ ...run, footprint }, family);
    const checks = page.slice(page.indexOf('<h2 id="checks">'), page.indexOf('<h2 id="coverage">'));
    expect(checks).toContain(`<p class="not-selected">1 check ${LOADER_NOT_SELECTED}</p>`);
    expect(checks).not.toContain('nodeagent-every-field');
    expect(checks).toContain('<code>crud</code>');
  });

  it('the live progress: one line for a component not given, at its first check; the other checks keep their lines', () => {
    const chunks: string[] = [];
    const p = new Progress({ isTTY: false, write: (t: string) => chunks.push(t) }, { now: () => 0 });
    p.begin(6);
    for (const id of ['va', 'vb', 'vc']) p.checkDone('nodeagent-config', id, { kind: 'not checked', reason: LOADER_NOT_SELECTED });
    p.checkDone('controller-daemon', 'dl', { kind: 'not checked', reason: DAEMON_NOT_SELECTED });
    p.checkDone('rest-errors', 'expiry', { kind: 'not checked', reason: 'needs --slow' });
    p.checkDone('nodeagent-config', 'vd', { kind: 'not checked', reason: LOADER_NOT_SELECTED });
    p.end();
    const lines = chunks.join('').split('\n').filter(Boolean);
    expect(lines).toEqual([
      `[1/6 0:00 ~0:00 left] nodeagent-config: ${LOADER_NOT_SELECTED} (its checks are not listed one by one)`,
      `[4/6 0:00 ~0:00 left] controller-daemon: ${DAEMON_NOT_SELECTED} (its checks are not listed one by one)`,
      '[5/6 0:00 ~0:00 left] rest-errors expiry: not checked (needs --slow)',
      // The last check's line, so a log ends at the total.
      '[6/6 0:00] nodeagent-config vd: not selected',
    ]);
  });

  it('the HTML of a run is not made of markup repeated per clause: a row of the clause table is its id, summary, status and count', () => {
    const row = /<tr class="row r-passed"[^]*?<\/tr>/.exec(toHtml(sampleRun(), familyOf))![0];
    expect(row).toBe(
      '<tr class="row r-passed" id="row-clause-rest_4.5_list_unset_limit-continue_other"><td>rest:4.5/list/unset/limit-continue/other</td><td>list with continue and no rv</td><td class="st">passed</td><td class="n">40</td></tr>',
    );
    void cx;
  });
});
