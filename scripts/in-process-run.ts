/**
 * Runs registered checks against a reference server started with faults or variations, the way the
 * CLI does but in-process, so the self-tests see the records the reports would show.
 */
import { randomBytes } from 'node:crypto';
import { startReferenceServer } from '../targets/api-server/index.ts';
import { SUPERUSER_GROUP } from '../reference/rbac.ts';
import type { FaultName } from '../targets/api-server/faults.ts';
import type { VariationName } from '../targets/api-server/variations.ts';
import { profiles, type ProfileName } from '../reference/profile.ts';
import { defaultTargetSettings, openEnv } from '../harness/env.ts';
import { runCheck } from '../harness/run-check.ts';
import { checkById } from '../suites/checks/index.ts';
import type { CheckRecord } from '../harness/results.ts';
import { embeddedHooks } from '../targets/api-server/hooks.ts';
import { SCALE_WINDOW_MS, scaleProfiles, type ScaleProfile } from '../harness/scale.ts';

export const CONTINUE_TTL_MS = 400;
/** Short, so rest:6.1.3 (410 for a version older than the history) is checked in seconds. */
export const HISTORY_WINDOW_MS = 1500;

/** The rest-scale checks need a scale profile: the self-tests' small one unless one is given. */
const isScaleCheck = (id: string) => checkById(id)?.suite === 'rest-scale';

type RunOptions = { checks: readonly string[]; faults?: readonly FaultName[]; variations?: readonly VariationName[]; runs: number; seed: number; path?: string; profile?: ProfileName; scale?: ScaleProfile; release?: string };

/**
 * The rest-scale checks run against a server of their own with the windows a long chain needs, so the
 * other checks keep the short windows that make their time-bound clauses quick.
 */
export async function runAgainst(o: RunOptions): Promise<CheckRecord[]> {
  const scaled = o.checks.filter(isScaleCheck);
  if (scaled.length === 0 || scaled.length === o.checks.length) return runOn(o, scaled.length > 0 ? (o.scale ?? scaleProfiles.selftest) : undefined);
  const rest = await runOn({ ...o, checks: o.checks.filter((c) => !isScaleCheck(c)) }, undefined);
  return [...rest, ...(await runOn({ ...o, checks: scaled }, o.scale ?? scaleProfiles.selftest))];
}

async function runOn(o: RunOptions, scale: ScaleProfile | undefined): Promise<CheckRecord[]> {
  const profile = profiles[o.profile ?? 'svc'];
  // A chain of many pages outlives the short token lifetime the other self-tests use...
  const continueTtlMs = scale ? SCALE_WINDOW_MS : CONTINUE_TTL_MS;
  // ...and the history its first page's revision lives in.
  const historyWindowMs = scale ? SCALE_WINDOW_MS : HISTORY_WINDOW_MS;
  // The suite's own identity is a superuser of the server, which authenticates and authorizes (rest:5).
  const token = randomBytes(16).toString('hex');
  const server = await startReferenceServer({ profile, tokens: new Map([[token, { user: 'svc-conformance', groups: [SUPERUSER_GROUP] }]]), continueTtlMs, historyWindowMs, bookmarkIntervalMs: 400, faults: o.faults ?? [], variations: o.variations ?? [], ...(o.release !== undefined ? { release: o.release } : {}) });
  const opened = openEnv(
    { server: server.url, tls: { insecureSkipTlsVerify: false }, headers: { Authorization: `Bearer ${token}` }, source: 'self-test' },
    { profile, runId: `t${o.seed.toString(16)}`, settings: { ...defaultTargetSettings, continueTtlMs, historyWindowMs, eventualWindowMs: 600, watchWaitMs: 600, bookmarkWaitMs: 1200, hooks: embeddedHooks(server.url), ...(scale ? { scale } : {}) }, signals: false },
  );
  try {
    const records: CheckRecord[] = [];
    for (const id of o.checks) {
      const check = checkById(id);
      if (!check) throw new Error(`no check ${id}`);
      records.push(...(await runCheck(check, opened.env, { seed: o.seed, runs: o.runs, ...(o.path !== undefined ? { path: o.path } : {}) })));
    }
    return records;
  } finally {
    await opened.close();
    await server.close();
  }
}

export const failuresOf = (records: readonly CheckRecord[]) => records.filter((r) => r.verdict === 'fail');
export const errorsOf = (records: readonly CheckRecord[]) => records.filter((r) => r.verdict === 'error');
