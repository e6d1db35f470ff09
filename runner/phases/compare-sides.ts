/**
 * The first phase of `compare`: both servers up, through the run's own bring-up (the embedded one
 * started, an external one's files read) and probe (first contact, the profile its groups speak), one
 * side after the other: the target, then the reference. A mistake names the side's own option
 * (`--reference-profile`, `reference: <kubeconfig error>`), as the command printed before it ran here.
 */
import { createTargetClient } from '../../harness/transport/index.ts';
import { ConfigError, type TargetConfig } from '../../harness/transport/index.ts';
import type { Hooks } from '../../harness/case/index.ts';
import { firstContact } from '../../harness/transport/index.ts';
import type { Profile } from '../../reference/profile.ts';
import type { ComparePlan, SidePlan } from '../compare-plan.ts';
import { bringUpTarget } from './bring-up.ts';
import { refuseProfileMismatch } from './probe.ts';

export interface SideUp {
  readonly which: SidePlan['which'];
  readonly cfg: TargetConfig;
  readonly profile: Profile;
  readonly runId: string;
  readonly label: string;
  /** The embedded server's restart and compaction hooks. */
  readonly hooks?: Hooks;
}

export interface SidesUp {
  readonly sides: readonly [SideUp, SideUp];
  readonly close: () => Promise<void>;
}

export async function bringUpSides(plan: ComparePlan): Promise<SidesUp> {
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const c of closers) await c().catch(() => undefined);
  };
  try {
    const target = await bringUpSide(plan.sides[0], closers);
    const reference = await bringUpSide(plan.sides[1], closers);
    if (target.cfg.server === reference.cfg.server)
      throw new ConfigError(`the target and the reference are the same server (${target.cfg.server}): compare needs two`);
    return { sides: [target, reference], close };
  } catch (e) {
    await close();
    throw e;
  }
}

async function bringUpSide(side: SidePlan, closers: (() => Promise<void>)[]): Promise<SideUp> {
  const up = await bringUpTarget({ target: side.target, profile: side.profile }, { tokenFileOption: `${side.flag}token-file` }).catch(
    (e: unknown) => {
      // The reference's kubeconfig mistakes say whose they are; its token file's line names its option already.
      if (e instanceof ConfigError && side.which === 'reference' && !e.message.startsWith(`${side.flag}token-file `))
        throw new ConfigError(`reference: ${e.message}`);
      throw e;
    },
  );
  closers.push(up.close);
  const base = { which: side.which, cfg: up.target, profile: side.profile, runId: side.runId, hooks: up.hooks };
  // The embedded server is started with the profile asked: nothing to ask it.
  if (!side.external) return { ...base, label: side.label! };
  const { release } = await firstContact(up.target);
  const probe = createTargetClient(up.target, { maxRetries: 1 });
  try {
    await refuseProfileMismatch(
      probe,
      side.profile,
      (better, asked) =>
        `the ${side.which} serves ${better.groupSuffix} groups and no ${asked.groupSuffix} group: give ${side.flag}profile ${better.name}`,
    );
  } finally {
    await probe.close();
  }
  return { ...base, label: side.label ?? `${release ?? 'unknown version'} at ${up.target.server}` };
}
