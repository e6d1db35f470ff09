/**
 * What an Allure reader filters and pivots on: the clause ids a check judged, its suite, the seed and
 * profile that replay it, and each counterexample's curl transcript as an attachment. Runs inside the
 * vitest test, where allure-vitest's setup has bound the runtime; elsewhere the calls do nothing.
 */
import * as allure from 'allure-js-commons';
import type { CheckRecord } from './results.ts';

export interface AllureFacts {
  readonly suite: string;
  readonly check: string;
  readonly clauses: readonly string[];
  readonly seed: number;
  readonly profile: string;
  readonly records: readonly CheckRecord[];
}

export async function labelForAllure(f: AllureFacts): Promise<void> {
  await allure.suite(f.suite);
  await allure.label('check', f.check);
  for (const c of f.clauses) await allure.label('clause', c);
  await allure.parameter('seed', String(f.seed));
  await allure.parameter('profile', f.profile);
  for (const r of f.records) {
    const cx = r.counterexample;
    if (cx === undefined) continue;
    await allure.attachment(`${r.clause} curl transcript`, cx.curl, { contentType: 'text/plain', fileExtension: 'sh' });
    await allure.attachment(`${r.clause} shrunk steps`, `${cx.steps.join('\n')}\n\nreplay: ${cx.replay}\n`, 'text/plain');
  }
}
