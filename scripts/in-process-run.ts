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

export const CONTINUE_TTL_MS = 400;
/** Short, so rest:6.1.3 (410 for a version older than the history) is checked in seconds. */
export const HISTORY_WINDOW_MS = 1500;

export async function runAgainst(o: { checks: readonly string[]; faults?: readonly FaultName[]; variations?: readonly VariationName[]; runs: number; seed: number; path?: string; profile?: ProfileName }): Promise<CheckRecord[]> {
  const profile = profiles[o.profile ?? 'svc'];
  // The suite's own identity is a superuser of the server, which authenticates and authorizes (rest:5).
  const token = randomBytes(16).toString('hex');
  const server = await startReferenceServer({ profile, tokens: new Map([[token, { user: 'svc-conformance', groups: [SUPERUSER_GROUP] }]]), continueTtlMs: CONTINUE_TTL_MS, historyWindowMs: HISTORY_WINDOW_MS, bookmarkIntervalMs: 400, faults: o.faults ?? [], variations: o.variations ?? [] });
  const opened = openEnv(
    { server: server.url, tls: { insecureSkipTlsVerify: false }, headers: { Authorization: `Bearer ${token}` }, source: 'self-test' },
    { profile, runId: `t${o.seed.toString(16)}`, settings: { ...defaultTargetSettings, continueTtlMs: CONTINUE_TTL_MS, historyWindowMs: HISTORY_WINDOW_MS, eventualWindowMs: 600, watchWaitMs: 600, bookmarkWaitMs: 1200, hooks: embeddedHooks(server.url) }, signals: false },
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
