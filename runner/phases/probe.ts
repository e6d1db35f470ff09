/**
 * The second phase: the target asked, once, whether the run can work with it, before any check. First
 * contact (a wrong scheme, a silent port), the profile its groups speak, what the run's identity may do
 * (the preflight) and whether the run's own namespace can be set up. A refusal is one line; otherwise
 * the reports learn the target's release and say which failures are known.
 */
import { ConfigError } from '../../harness/transport/index.ts';
import { createTargetClient } from '../../harness/transport/index.ts';
import { InfrastructureError, type Target } from '../../harness/transport/index.ts';
import type { GuardedTarget } from '../../harness/transport/index.ts';
import { probeNamespaceSetup, setupNamespaceName } from '../../harness/transport/index.ts';
import { preflight } from '../../harness/transport/index.ts';
import { firstContact } from '../../harness/transport/index.ts';
import { profileMismatch, profiles, type Profile } from '../../reference/profile.ts';
import type { RunIO } from '../executed-run.ts';
import type { RunPlan } from '../plan.ts';
import type { CheckRecord } from '../results.ts';
import type { BroughtUp } from './bring-up.ts';

export type Probed =
  | { readonly refused: string }
  | {
      readonly refused?: undefined;
      readonly known?: (r: CheckRecord) => boolean;
      /** The namespace the setup probe created through the guard it was given: the capability probe's. */
      readonly setupNamespace?: string;
    };

type Client = ReturnType<typeof createTargetClient>;

/**
 * `setup`: the guarded client the namespace setup is created through, so that the capability probe
 * after it may work in that namespace (its guard saw the run create it); absent: the probe's own client.
 */
export async function probeTarget(plan: RunPlan, up: BroughtUp, io: RunIO, setup?: GuardedTarget): Promise<Probed> {
  const probe = createTargetClient(up.target, { maxRetries: 1 });
  try {
    // A target that cannot be worked with at all (a wrong scheme, a silent port) is refused in one line,
    // with notTested reports as for a refused identity: a hostile run still ends with its reports.
    const contact = await firstContact(up.target).catch((e: unknown) => {
      if (e instanceof InfrastructureError && io.edge !== undefined) return e.message;
      throw e;
    });
    if (typeof contact === 'string') return { refused: contact };
    const refused = await askBeforeChecks(plan, up, setup ?? probe, probe, contact.answers, io.log);
    if (refused !== undefined) return { refused };
    const setupNamespace = setup?.created().namespaces.find((n) => n === setupNamespaceName(plan.runId));
    const reported = contact.release;
    const known =
      io.edge?.reachable(reported ?? (plan.target.kind === 'embedded' ? plan.target.release : plan.settings.release), {
        server: up.target.server,
        source: up.target.source,
        reportedVersion: reported,
      }) ?? plan.inProcess?.known;
    return { known, setupNamespace };
  } finally {
    await probe.close();
  }
}

/** The profile, the identity's permissions and the namespace setup: a refusal's line, or nothing. */
async function askBeforeChecks(
  plan: RunPlan,
  up: BroughtUp,
  setup: Target,
  probe: Client,
  earlier: Parameters<typeof preflight>[1]['earlier'],
  log: (line: string) => void,
): Promise<string | undefined> {
  const { profile, runId } = plan;
  if (plan.target.kind === 'external') await refuseProfileMismatch(probe, profile);
  // Only the API suites need the identity's permissions; a loader or daemon run asks nothing.
  // `--no-preflight` asks nothing before the checks: they find out for themselves, as before.
  if (!plan.preflight || !plan.selection.selected.some((c) => c.suite.startsWith('rest-'))) return undefined;
  // A review that gets no answer decides nothing: the checks find out for themselves (a target that
  // holds connections must still get a run and its reports, not a stop before them).
  const undecided = (what: string) => (e: unknown) => {
    if (!(e instanceof InfrastructureError)) throw e;
    log(`svc-conformance: ${what} undecided (${e.message}); the checks go on`);
    return undefined;
  };
  const refused = await preflight(probe, { profile, runId, credentials: up.target.source, earlier, namespaces: plan.namespaces }).catch(
    undecided('preflight'),
  );
  if (refused !== undefined || plan.namespaces !== undefined) return refused;
  // Without --namespace the run's own setup is one namespace: tried once here, not by every check.
  return probeNamespaceSetup(setup, { profile, runId }).catch(undecided('namespace setup'));
}

/** The line for a server whose groups speak another profile than the one asked: `run`'s, or compare's per side. */
export type MismatchLine = (better: Profile, asked: Profile) => string;

const runMismatch: MismatchLine = (better, asked) =>
  `the target serves ${better.groupSuffix} groups and no ${asked.groupSuffix} group: run with --profile ${better.name}`;

/** Pointing the `svc` names at an upstream server fails every named-group check: say so before running. */
export async function refuseProfileMismatch(probe: Client, profile: Profile, line: MismatchLine = runMismatch): Promise<void> {
  const r = await probe.send({ method: 'GET', path: '/apis' });
  const groups = (r.json as { groups?: { name?: unknown }[] } | undefined)?.groups;
  if (r.status !== 200 || !Array.isArray(groups)) return;
  const better = profileMismatch(
    groups.flatMap((g) => (typeof g.name === 'string' ? [g.name] : [])),
    profile,
  );
  if (better !== undefined) throw new ConfigError(line(profiles[better], profile));
}
