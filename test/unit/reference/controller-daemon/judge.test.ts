// The daemon judges (reference/controller-daemon/judge.ts) on hand-made observations: each accepts what
// the spec allows (upstream's answers among them) and rejects a near miss.
import { describe, expect, it } from 'vitest';
import {
  formatHelp,
  judgeCipherSuites,
  judgeHelp,
  judgeLease,
  judgeOpenDecision,
  judgePaths,
  judgeRefusal,
  judgeTlsMinVersion,
  leaseWindow,
  parseHelp,
  withDefaults,
  type LeaseObservation,
} from '../../../../reference/controller-daemon/index.ts';
import { shownDefault } from '../../../../reference/controller-daemon/help.ts';
import { helpInWords } from '../../../../targets/controller-daemon/variations.ts';

const verdicts = (js: readonly { verdict: string }[]) => js.map((j) => j.verdict);
const window = leaseWindow(withDefaults({}, 'k8s'));

describe("help defaults in the text's own words", () => {
  it('reads pflag\'s (default x) and a "Default is x." sentence, not a sentence giving several', () => {
    expect(shownDefault('Streams (default 5s)')).toBe('5s');
    expect(shownDefault('Mask size for IPv4 node cidr in dual-stack cluster. Default is 24.')).toBe('24');
    expect(shownDefault('Mask size for node cidr in cluster. Default is 24 for IPv4 and 64 for IPv6.')).toBeUndefined();
  });
  it('the reference help rewritten in other legal spellings passes; a wrong default in words fails', () => {
    const words = helpInWords(formatHelp('k8s'));
    expect(words).toContain('Default is 24.');
    expect(words).toContain('(default 1m)');
    expect(judgeHelp(parseHelp(words), 'k8s').filter((j) => j.verdict === 'fail')).toEqual([]);
    const wrong = words.replace('Default is 24.', 'Default is 25.');
    expect(
      judgeHelp(parseHelp(wrong), 'k8s')
        .filter((j) => j.verdict === 'fail')
        .map((j) => j.clause),
    ).toEqual(['node:2.6/node-cidr-mask-size-ipv4']);
  });
});

describe('always-allowed paths are authorized, not necessarily served', () => {
  const allowed = ['/healthz', '/readyz', '/livez'];
  it('200 or 404 on a listed path, 403 elsewhere', () => {
    expect(
      verdicts(
        judgePaths(
          [
            { path: '/healthz', status: 200 },
            { path: '/readyz', status: 404 },
            { path: '/configz', status: 403 },
          ],
          allowed,
        ),
      ),
    ).toEqual(['pass', 'pass', 'pass']);
  });
  it('a listed path refused by authorization fails; an unlisted one served fails', () => {
    expect(
      verdicts(
        judgePaths(
          [
            { path: '/readyz', status: 403 },
            { path: '/livez', status: 401 },
            { path: '/configz', status: 200 },
          ],
          allowed,
        ),
      ),
    ).toEqual(['fail', 'fail', 'fail']);
  });
  // node:5 bounds no answer time, so a path not answered within the suite's wait decides
  // nothing either way (it was a failure, and a busy machine made the reference daemon fail).
  it('a path not answered within the wait is inconclusive, listed or not, and names the wait', () => {
    const js = judgePaths(
      [
        { path: '/readyz', status: undefined, waitedMs: 4000 },
        { path: '/configz', status: undefined },
      ],
      allowed,
    );
    expect(verdicts(js)).toEqual(['inconclusive', 'inconclusive']);
    expect(js.map((j) => j.clause)).toEqual(['node:5/authorization-always-allow-paths', 'node:5/authorization-kubeconfig']);
    expect(js[0]!.observed).toContain('4000 ms');
  });
});

describe('TLS handshakes: silence is neither a refusal nor an acceptance', () => {
  const accepted = { ok: true, protocol: 'TLSv1.3', fingerprint256: 'AA' } as const;
  const refused = { ok: false, error: 'alert protocol version' } as const;
  const silent = { ok: false, error: 'no handshake answer within 6000 ms', timedOut: true } as const;
  it('a refused 1.2 and an accepted 1.3 pass; the reverse fails', () => {
    expect(verdicts(judgeTlsMinVersion(refused, accepted))).toEqual(['pass', 'pass']);
    expect(verdicts(judgeTlsMinVersion({ ...accepted, protocol: 'TLSv1.2' }, refused))).toEqual(['fail', 'fail']);
  });
  // A 1.2 handshake that timed out once counted as refused: a pass bought by silence.
  it('a handshake without an answer is inconclusive whichever outcome was expected', () => {
    expect(verdicts(judgeTlsMinVersion(silent, silent))).toEqual(['inconclusive', 'inconclusive']);
    expect(verdicts(judgeCipherSuites(silent, accepted))).toEqual(['inconclusive', 'pass']);
    expect(verdicts(judgeCipherSuites(accepted, silent))).toEqual(['fail', 'inconclusive']);
  });
});

describe('refusals', () => {
  const v = {
    clause: 'node:8/attach-detach-reconcile-sync-period' as const,
    rule: 'must exceed one second',
    flag: '--attach-detach-reconcile-sync-period',
  };
  it('exit non-zero passes; exit 0 or serving fails', () => {
    expect(
      verdicts(
        judgeRefusal({ ...v, binding: 'refuse' }, { kind: 'exited', code: 1, output: 'Error: --attach-detach-reconcile-sync-period: ...' }),
      ),
    ).toEqual(['pass', 'pass']);
    expect(verdicts(judgeRefusal({ ...v, binding: 'refuse' }, { kind: 'exited', code: 0, output: '' }))).toEqual(['fail']);
    expect(verdicts(judgeRefusal({ ...v, binding: 'refuse' }, { kind: 'serving', healthz: 200 }))).toEqual(['fail']);
  });
  it('a control-loop value still served: inconclusive until the main loop is seen running, then a failure', () => {
    expect(
      verdicts(judgeRefusal({ ...v, binding: 'main-loop' }, { kind: 'serving', healthz: 200 }, { leaderAndRunning: false, window })),
    ).toEqual(['inconclusive']);
    expect(
      verdicts(judgeRefusal({ ...v, binding: 'main-loop' }, { kind: 'serving', healthz: 200 }, { leaderAndRunning: true, window })),
    ).toEqual(['fail']);
  });
  it('an option without what it needs: refused or accepted, both recorded only', () => {
    const o = { clause: 'node:2.6/cluster-cidr' as const, rule: 'needs --allocate-node-cidrs true', flag: '--cluster-cidr' };
    expect(
      verdicts([
        ...judgeOpenDecision(o, { kind: 'serving', healthz: 200 }),
        ...judgeOpenDecision(o, { kind: 'exited', code: 1, output: '' }),
      ]),
    ).toEqual(['unspecified', 'unspecified']);
  });
});

describe('the leader Lease', () => {
  const at = (rv: string, holder?: string) => ({
    namespace: 'kube-system',
    name: 'kube-controller-manager',
    resourceVersion: rv,
    ...(holder ? { holder } : {}),
  });
  const base: LeaseObservation = { window, elsewhere: [], namespaceExists: true };
  it("the window comes from the spec's durations: 15s + 3 × 2s", () => {
    expect(window).toMatchObject({ namespace: 'kube-system', name: 'kube-controller-manager', ms: 21_000 });
  });
  it('written with a holder after the start passes; a takeover of an earlier holder too', () => {
    expect(verdicts(judgeLease({ ...base, after: at('5', 'kcm_1') }))).toEqual(['pass', 'pass', 'pass']);
    expect(verdicts(judgeLease({ ...base, before: at('4', 'kcm_0'), after: at('9', 'kcm_1') }))).toEqual(['pass', 'pass', 'pass']);
  });
  it('written elsewhere fails the place; an exit fails leader-elect', () => {
    expect(
      judgeLease({ ...base, elsewhere: [{ namespace: 'kube-system', name: 'controller-manager', resourceVersion: '3', holder: 'x' }] })
        .filter((j) => j.verdict === 'fail')
        .map((j) => j.clause),
    ).toEqual(['node:2.6/leader-elect-resource-name']);
    expect(verdicts(judgeLease({ ...base, exited: { code: 255, output: 'fatal' } }))).toEqual(['fail']);
  });
  it('nothing within the window, or a server without the lock namespace: inconclusive, never a pass', () => {
    expect(verdicts(judgeLease({ ...base, before: at('4', 'kcm_0'), after: at('4', 'kcm_0') }))).toEqual([
      'inconclusive',
      'inconclusive',
      'inconclusive',
    ]);
    const missing = judgeLease({ ...base, namespaceExists: false });
    expect(verdicts(missing)).toEqual(['inconclusive', 'inconclusive', 'inconclusive']);
    expect(missing[0]!.observed).toContain("the server's fault");
    expect(missing[0]!.expected).toContain('21000 ms');
  });
});
