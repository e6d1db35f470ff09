/**
 * The stage of `compare`: each selected check's cases run against both servers in lockstep
 * (harness/interpreters/lockstep.ts), one environment per side opened through runner/session.ts, every case's steps
 * classified (harness/interpreters/lockstep-case.ts) with the identifiers the two profiles spell differently
 * translated. A line per check as it ends.
 */
import type { Profile } from '../../reference/profile.ts';
import { lockstepTarget, runLockstep, type LockstepSides, type SideSlot } from '../../harness/interpreters/index.ts';
import { classifyCase, type StepResult } from '../../harness/interpreters/index.ts';
import { translator } from '../../harness/interpreters/index.ts';
import { checks } from '../../suites/checks/index.ts';
import type { ComparePlan } from '../compare-plan.ts';
import type { ComparedCheck } from '../executed-compare.ts';
import { openSession, type OpenedEnv } from '../session.ts';
import type { SidesUp } from './compare-sides.ts';

export interface Lockstepped {
  readonly checks: ComparedCheck[];
  readonly steps: StepResult[];
  readonly notCompared: number;
}

export async function runLockstepStage(plan: ComparePlan, up: SidesUp, log: (line: string) => void): Promise<Lockstepped> {
  const [ta, tb] = up.sides;
  const slots: [SideSlot, SideSlot] = [{}, {}];
  const opened: OpenedEnv[] = [];
  try {
    for (const p of up.sides) {
      opened.push(
        openSession({
          target: p.cfg,
          profile: p.profile,
          runId: p.runId,
          settings: { ...plan.settings, ...(p.hooks ? { hooks: p.hooks } : {}) },
          signals: true,
        }),
      );
    }
    const wrapped = (i: 0 | 1) => ({ ...opened[i]!.env, target: lockstepTarget(opened[i]!.env.target, i, slots[i]) });
    const sides: LockstepSides = { envs: [wrapped(0), wrapped(1)], slots };
    const translate = translator(
      [...profilePairs(tb.profile, ta.profile), [tb.runId, ta.runId]],
      [[tb.profile.clusterName, ta.profile.clusterName]],
    );
    const steps: StepResult[] = [];
    const rows: ComparedCheck[] = [];
    let notCompared = 0;
    for (const id of plan.selected) {
      const check = checks.find((c) => c.id === id)!;
      const t0 = Date.now();
      const { cases, notApplicable } = await runLockstep(check, sides, { seed: plan.seed, runs: plan.runs, path: plan.path });
      let stepCount = 0;
      for (const c of cases) {
        const classified = classifyCase(c, translate);
        notCompared += classified.notCompared;
        stepCount += classified.results.filter((r) => r.step >= 0).length;
        steps.push(...classified.results);
      }
      rows.push({ id, suite: check.suite, cases: cases.length, steps: stepCount, notApplicable });
      const mine = steps.filter((s) => s.check === id && s.class !== 'same');
      log(
        `  ${id}: ${cases.length} cases, ${stepCount} steps, ${mine.length} not alike${notApplicable ? ` (not applicable: ${notApplicable})` : ''} (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
      );
    }
    return { checks: rows, steps, notCompared };
  } finally {
    for (const e of opened) await e.close().catch(() => undefined);
  }
}

/** The identifiers of one profile that another spells differently (reference/profile.ts), as from->to pairs. */
export function profilePairs(from: Profile, to: Profile): [string, string][] {
  const keys = [
    'groupSuffix',
    'metaGroup',
    'deprecatedAnnotation',
    'protobufMediaType',
    'listTypeExtension',
    'listMapKeysExtension',
    'mapTypeExtension',
    'patchStrategyExtension',
    'patchMergeKeyExtension',
    'preserveUnknownFieldsExtension',
    'controllerManagerName',
    'systemNamespace',
    'nodeLeaseNamespace',
    'publicNamespace',
  ] as const;
  // The namespace name label (rest:2.3) is spelled from the cluster's own domain, not the group suffix.
  const nameLabel = (p: Profile) => (p.name === 'k8s' ? 'kubernetes.io/metadata.name' : `${p.groupSuffix}/metadata.name`);
  return [[nameLabel(from), nameLabel(to)] as [string, string], ...keys.map((k) => [from[k], to[k]] as [string, string])].filter(
    ([f, t]) => f !== t,
  );
}
