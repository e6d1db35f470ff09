import { describe, expect, it } from 'vitest';
import { toHtml } from '../../../reports/html.ts';
import { familyOf } from './fixtures.ts';
import { sampleRun } from './sample-run.ts';

describe('toHtml', () => {
  const page = toHtml(sampleRun(), familyOf);

  it('shows the verdict, the totals and a coverage row per area', () => {
    expect(page).toMatch(
      /<div class="banner v-nonconformant">Verdict: nonconformant: 2 failures, \d+ clauses judged · <span class="target t-external">https:\/\/127\.0\.0\.1:6443 \(kubeconfig \/home\/u\/\.kube\/config, context prod\)<\/span><\/div>/,
    );
    expect(page).toContain('<span class="tag s-failed">2</span> failed');
    for (const area of ['rest:4.4 paging', 'rest:4.5 resource versions', 'node:2.2 defaults', 'node:1 overview']) {
      expect(page).toContain(`<tr><td>${area}</td>`);
    }
    // rest:4.4 has 2 failed and 1 unspecified of 3: the failed segment is two thirds of the bar.
    expect(page).toContain('class="s-failed" style="width:66.67%"');
  });

  it('puts failures before the full clause table, with reproduction details', () => {
    const failures = page.indexOf('<h2 id="failures">Failures beyond expectations (2)</h2>');
    const all = page.indexOf('<h2 id="clauses">All clauses</h2>');
    expect(failures).toBeGreaterThan(0);
    expect(all).toBeGreaterThan(failures);
    const section = page.slice(failures, all);
    expect(section).toContain('<code>rest:4.4.3</code> continue token resumes the list');
    expect(section).toContain('<pre>status 200 with items [b, c]</pre>');
    expect(section).toContain('<li><code>list continue=T</code></li>');
    expect(section).toContain('<pre>npx svc-conformance run --seed 42 --path 3:1 --check paging-continue</pre>');
    expect(section).toMatch(/<details><summary>show<\/summary><pre>#!\/usr\/bin\/env bash\ncurl -sS &quot;\$SERVER&quot;&#39;\/api/);
  });

  it('is self-contained: no script, no external asset', () => {
    expect(page).not.toMatch(/<script|<link|<img|src=|@import|url\(/i);
    // Links leave the page only for the failure pages written beside it (reports/failure-page.ts).
    expect(page).not.toMatch(/href="(?!#|failures\/[A-Za-z0-9._-]+\.html")/);
    expect(page).toMatch(/href="failures\/rest_4\.4\.3-1\.html"/);
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
  });

  it('escapes hostile strings everywhere', () => {
    const hostile = toHtml(sampleRun({ hostile: true, errors: ['<img src=x onerror=alert(1)>'] }), familyOf);
    expect(hostile).not.toMatch(/<script|<img/i);
    expect(hostile).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; ]]&gt; \\u0001\\u001b[2J end');
    expect(hostile).not.toContain('\u0001');
    expect(hostile).not.toContain('\u001b');
  });

  it('lists known failures apart from regressions', () => {
    const known = toHtml(
      sampleRun({ expectations: { knownFailures: [{ clause: 'rest:4.4.6', reason: 'tokens never expire' }] } }),
      familyOf,
    );
    expect(known).toContain('<h2 id="failures">Failures beyond expectations (1)</h2>');
    expect(known).toContain('<h2 id="known-failures">Known failures (1)</h2>');
    expect(known).toContain('known failure (any failure of the clause): tokens never expire');
  });

  it('errors: a section with each reason, the errored check never green in the checks table', () => {
    const fp = (check: string) => ({
      check,
      wallMs: 1000,
      namespaces: 0,
      clusterObjects: 0,
      requests: { GET: 2 },
      bytesSent: 0,
      bytesReceived: 0,
      namespaceWaitMs: 0,
    });
    const run = sampleRun({ errors: ['watch-resume [rest:6.1.5]: connection reset by the target'] });
    const withChecks = {
      ...run,
      footprint: {
        namespaces: 0,
        clusterObjects: 0,
        requests: {},
        bytesSent: 0,
        bytesReceived: 0,
        checkWallMs: 3000,
        checks: [fp('some-check'), fp('watch-resume'), fp('quiet-check')],
      },
    };
    const errorPage = toHtml(withChecks, familyOf);
    const errors = errorPage.slice(errorPage.indexOf('<h2 id="errors">'), errorPage.indexOf('<h2 id="failures">'));
    expect(errors).toContain('Errors (2)');
    expect(errors).toContain('connection reset by the target');
    expect(errors).toMatch(/<code>node:2\.2\/maxPods<\/code><\/a><\/td><td><code>some-check<\/code><\/td><td>loader timed out<\/td>/);
    const checksTable = errorPage.slice(errorPage.indexOf('<h2 id="checks">'));
    const row = (check: string) => checksTable.split('\n').find((l) => l.includes(`<code>${check}</code>`)) ?? '';
    // some-check also failed two clauses: failed wins; watch-resume only errored; quiet-check neither.
    expect(row('watch-resume')).toContain('<span class="tag s-error">error</span>');
    expect(row('watch-resume')).not.toContain('s-passed');
    expect(row('quiet-check')).toContain('<td>no failure</td>');
    expect(errorPage).toContain('<a href="#errors">errors</a>');
  });

  it('tables fit a laptop screen: header and status words never break inside ("not chec ked")', () => {
    expect(page).toMatch(/th,\.tag,td\.n\{white-space:nowrap\}/);
    expect(page).not.toMatch(/(td,th|th,td)\{overflow-wrap:anywhere\}/);
  });
});
