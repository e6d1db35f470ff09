/**
 * compare's sides come up through the run's bring-up and probe (runner/phases/compare-sides.ts): an
 * external side is asked the profile its groups speak and named by the release it reports, and each
 * mistake is one line naming the side's own option, as the command printed before it ran there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { planCompare, type CompareOptions, type SideOptions } from '../../../runner/compare-plan.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../../runner/embedded.ts';
import { bringUpSides } from '../../../runner/phases/compare-sides.ts';
import { profiles } from '../../../reference/profile.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'compare-sides-'));
let k8s: EmbeddedTarget;
let tokenFile: string;

beforeAll(async () => {
  k8s = await startEmbeddedTarget({}, profiles.k8s);
  tokenFile = path.join(dir, 'token');
  writeFileSync(tokenFile, `${k8s.token!}\n`);
});
afterAll(async () => {
  await k8s.close();
});

const planOf = (target: SideOptions, reference: SideOptions) => {
  const o: CompareOptions = { target, reference, runs: 1, reports: dir, strict: false };
  return planCompare(o, { seed: 1, runIds: ['aaaa1111', 'bbbb2222'] }).plan!;
};
const external = (profile: 'svc' | 'k8s'): SideOptions => ({ profile, server: k8s.config.server, tokenFile });

describe('compare: both sides brought up by the run phases', () => {
  it('an external side that speaks its profile is named by the release it reports', async () => {
    const up = await bringUpSides(planOf({ profile: 'svc' }, external('k8s')));
    try {
      expect(up.sides[1].cfg.server).toBe(k8s.config.server);
      expect(up.sides[1].label).toMatch(new RegExp(` at ${k8s.config.server.replace(/[.]/g, '\\.')}$`));
      expect(up.sides[1].label).not.toMatch(/^unknown version/);
      expect(up.sides[0].label).toBe('embedded reference server');
      expect(up.sides[0].hooks).toBeDefined();
    } finally {
      await up.close();
    }
  });

  it("a side whose groups speak the other profile is refused with that side's option", async () => {
    await expect(bringUpSides(planOf({ profile: 'svc' }, external('svc')))).rejects.toThrow(
      /^the reference serves k8s\.io groups and no svc\.io group: give --reference-profile k8s$/,
    );
    await expect(bringUpSides(planOf(external('svc'), { profile: 'svc' }))).rejects.toThrow(
      /^the target serves k8s\.io groups and no svc\.io group: give --profile k8s$/,
    );
  });

  it('two sides that are one server are refused', async () => {
    await expect(bringUpSides(planOf(external('k8s'), external('k8s')))).rejects.toThrow(/are the same server .*compare needs two/);
  });

  it("the reference's files: a kubeconfig mistake says whose, a token file's names its option", async () => {
    await expect(bringUpSides(planOf({ profile: 'svc' }, { profile: 'svc', kubeconfig: path.join(dir, 'nope.yaml') }))).rejects.toThrow(
      /^reference: .*nope\.yaml/,
    );
    await expect(
      bringUpSides(planOf({ profile: 'svc' }, { profile: 'svc', server: 'https://127.0.0.1:9', tokenFile: path.join(dir, 'none') })),
    ).rejects.toThrow(/^--reference-token-file .*none: no such file$/);
  });
});
