// The loader oracle's tolerances of a Go loader, each with the answers it must accept and the near misses
// it must still fail: an explicit zero read as unset (Go cannot tell it from an absent field), and an
// error path naming the list that holds the broken item.
import { describe, expect, it } from 'vitest';
import { judgeConfigAnswer, judgeCredentialAnswer, namesField } from '../../../../reference/nodeagent/loader-oracle.ts';
import { effective, withZerosUnset } from '../../../../reference/nodeagent/config.ts';
import { profiles } from '../../../../reference/profile.ts';

const svc = profiles.svc;
const base = { apiVersion: 'nodeagent.config.svc.io/v1beta1', kind: 'NodeagentConfiguration', reservedSystemCPUs: '' };
const printing = (doc: Record<string, unknown>, over: Record<string, unknown>) => ({
  exitCode: 0,
  stdout: JSON.stringify({ ...effective(doc, svc), ...over }),
});
const verdicts = (js: readonly { clause: string; verdict: string }[], clause: string) =>
  js.filter((j) => j.clause === clause).map((j) => j.verdict);

describe('an explicit zero of a defaulted scalar', () => {
  it('is left out by withZerosUnset, nested ones too, but not where the spec gives 0 a meaning, nor false', () => {
    const doc = {
      ...base,
      port: 0,
      registryPullQPS: 0,
      imageMinimumGCAge: '0s',
      enableServer: false,
      authentication: { webhook: { cacheTTL: '0s', enabled: false } },
    };
    expect(withZerosUnset(doc, svc)).toEqual({
      ...base,
      registryPullQPS: 0,
      enableServer: false,
      authentication: { webhook: { enabled: false } },
    });
    expect(withZerosUnset({ ...base, port: 1 }, svc)).toBeUndefined();
  });

  it('invalid as written (port: 0): refusing it passes; accepting it passes only with the default shown', () => {
    const doc = { ...base, port: 0 };
    expect(verdicts(judgeConfigAnswer(doc, { exitCode: 1, stdout: '' }, svc), 'node:2.2/port')).toEqual(['pass']);
    expect(verdicts(judgeConfigAnswer(doc, printing(doc, { port: 10250 }), svc), 'node:2.2/port')).toEqual(['pass']);
    expect(verdicts(judgeConfigAnswer(doc, printing(doc, { port: 0 }), svc), 'node:2.2/port')).toEqual(['fail']);
    // Accepted with nothing printed: which reading the loader took is unknown, never a pass.
    expect(verdicts(judgeConfigAnswer(doc, { exitCode: 0, stdout: '' }, svc), 'node:2.2/port')).toEqual(['inconclusive']);
  });

  it('an invalid zero read as unset beside a valid zero kept (the kubelet: lease 0 -> 40, GC low 0 stays 0)', () => {
    const doc = { ...base, nodeLeaseDurationSeconds: 0, imageGCLowThresholdPercent: 0 };
    expect(
      judgeConfigAnswer(doc, printing(doc, { nodeLeaseDurationSeconds: 40, imageGCLowThresholdPercent: 0 }), svc).filter(
        (j) => j.verdict === 'fail',
      ),
    ).toEqual([]);
    expect(
      verdicts(
        judgeConfigAnswer(doc, printing(doc, { nodeLeaseDurationSeconds: 40, imageGCLowThresholdPercent: 5 }), svc),
        'node:2.2/imageGCLowThresholdPercent',
      ),
    ).toContain('fail');
  });

  it('a zero that is one of several violations is still refused', () => {
    const doc = { ...base, port: 0, maxPods: -1 };
    expect(
      judgeConfigAnswer(doc, printing(doc, { port: 10250 }), svc, 'node:2.2/maxPods')
        .filter((j) => j.verdict === 'fail')
        .map((j) => j.clause),
    ).toEqual(['node:2.2/maxPods']);
  });

  it('valid as written (registryBurst: 0): either 0 or the default is the effective value, nothing else', () => {
    const doc = { ...base, registryBurst: 0 };
    for (const [shown, verdict] of [
      [0, 'pass'],
      [10, 'pass'],
      [7, 'fail'],
    ] as const) {
      expect(
        verdicts(judgeConfigAnswer(doc, printing(doc, { registryBurst: shown }), svc), 'node:2.2/registryBurst'),
        String(shown),
      ).toContain(verdict);
    }
  });

  it('never where the spec gives zero a meaning (registryPullQPS 0: no limit) nor for false', () => {
    const qps = { ...base, registryPullQPS: 0 };
    expect(verdicts(judgeConfigAnswer(qps, printing(qps, { registryPullQPS: 5 }), svc), 'node:2.2/registryPullQPS')).toContain('fail');
    const off = { ...base, enableDebuggingHandlers: false };
    expect(
      verdicts(judgeConfigAnswer(off, printing(off, { enableDebuggingHandlers: true }), svc), 'node:2.2/enableDebuggingHandlers'),
    ).toContain('fail');
  });
});

describe('error paths', () => {
  it('the field itself, or the list holding the broken item; never a parent further up', () => {
    expect(namesField('providers[0].matchImages[1]', 'providers[0].matchImages[1]')).toBe(true);
    expect(namesField('providers[0].matchImages', 'providers[0].matchImages[1]')).toBe(true);
    expect(namesField('providers[0]', 'providers[0].matchImages[1]')).toBe(false);
    expect(namesField('providers', 'providers[0].name')).toBe(false);
    expect(namesField('providers[1].matchImages', 'providers[0].matchImages[1]')).toBe(false);
    expect(namesField('authentication', 'authentication.webhook.cacheTTL')).toBe(false);
  });

  it('judged so in a credential provider answer', () => {
    const doc = {
      apiVersion: 'nodeagent.config.svc.io/v1beta1',
      kind: 'CredentialProviderConfig',
      providers: [
        { name: 'a', matchImages: ['*.r.io', 'r.io:*'], defaultCacheDuration: '1m', apiVersion: 'credentialprovider.svc.io/v1beta1' },
      ],
    };
    const answer = (field: string) => ({ exitCode: 1, stdout: JSON.stringify({ errors: [{ field, message: 'x' }] }) });
    expect(verdicts(judgeCredentialAnswer(doc, answer('providers[0].matchImages'), svc), 'node:2.1/matchImages')).toEqual(['pass', 'pass']);
    expect(verdicts(judgeCredentialAnswer(doc, answer('providers'), svc), 'node:2.1/matchImages')).toEqual(['pass', 'fail']);
  });
});

describe('error paths of a wrong-type value', () => {
  const rejecting = (...fields: string[]) => ({
    exitCode: 1,
    stdout: JSON.stringify({ errors: fields.map((field) => ({ field, message: 'm' })) }),
  });

  it('a map entry of the wrong type: naming the entry or the map (2.2 types featureGates as one field) passes; another field fails', () => {
    const doc = { ...base, featureGates: { x: 'yes please' } };
    expect(verdicts(judgeConfigAnswer(doc, rejecting('featureGates.x'), svc), 'node:2.2/featureGates')).toEqual(['pass', 'pass']);
    expect(verdicts(judgeConfigAnswer(doc, rejecting('featureGates'), svc), 'node:2.2/featureGates')).toEqual(['pass', 'pass']);
    expect(verdicts(judgeConfigAnswer(doc, rejecting('maxPods'), svc), 'node:2.2/featureGates')).toEqual(['pass', 'fail']);
  });

  it('a nested member is not named by its parent type', () => {
    const doc = { ...base, authentication: { webhook: { enabled: 'true' } } };
    expect(verdicts(judgeConfigAnswer(doc, rejecting('authentication'), svc), 'node:2.3/NodeagentAuthentication.webhook')).toEqual([
      'pass',
      'fail',
    ]);
  });

  it('an empty field names none: the rejection alone is judged, as with no report; a named wrong field still fails', () => {
    const doc = { ...base, logging: { options: { json: { infoBufferSize: '10MB' } } } };
    expect(verdicts(judgeConfigAnswer(doc, rejecting(''), svc), 'node:2.4/JSONOptions.infoBufferSize')).toEqual(['pass']);
    expect(verdicts(judgeConfigAnswer(doc, rejecting('', 'maxPods'), svc), 'node:2.4/JSONOptions.infoBufferSize')).toEqual([
      'pass',
      'fail',
    ]);
    expect(verdicts(judgeConfigAnswer(doc, { exitCode: 0, stdout: '' }, svc), 'node:2.4/JSONOptions.infoBufferSize')).toEqual(['fail']);
  });
});

describe('defaults 2.5 does not show (cgroupRoot, seccompDefault)', () => {
  it('the value a loader fills in for a field left out is recorded as unspecified, never judged; a file setting it records nothing', () => {
    const js = judgeConfigAnswer(base, printing(base, { seccompDefault: true }), svc);
    expect(js.filter((j) => j.clause === 'node:2.5/seccompDefault')).toEqual([
      expect.objectContaining({ verdict: 'unspecified', observed: 'effective seccompDefault = true' }),
    ]);
    expect(js.filter((j) => j.clause === 'node:2.5/cgroupRoot')).toEqual([
      expect.objectContaining({ verdict: 'unspecified', observed: 'left out of the effective configuration' }),
    ]);
    const set = { ...base, cgroupRoot: '/pods', seccompDefault: false };
    const judged = judgeConfigAnswer(set, printing(set, {}), svc);
    expect(judged.filter((j) => j.clause === 'node:2.5/cgroupRoot' || j.clause === 'node:2.5/seccompDefault')).toEqual([]);
    // A refused file shows no effective configuration: nothing recorded.
    expect(judgeConfigAnswer(base, { exitCode: 1, stdout: '' }, svc).filter((j) => j.clause === 'node:2.5/cgroupRoot')).toEqual([]);
  });
});
