/**
 * The feature gates of node:2.6 with their stage and default, and the life cycle of rest:9.3 ("Alpha
 * gate is off by default and can be enabled; Beta gate is on by default and can be disabled; GA gate is
 * deprecated and non-operational ... Disabling a non-operational gate fails").
 *
 * The spec names most gates; some it describes in words ("the node-agent credential provider, pod
 * resources, pod resources allocatable and server-certificate rotation gates", "the storage migration
 * gates for three vendors", "the in-tree-plugin unregister gates"). Those take their upstream names here
 * with `named: false`, so the suite never builds a verdict on a name the spec does not print.
 * The node-agent gates are spelled per profile (`RotateNodeagentServerCertificate` /
 * `RotateKubeletServerCertificate`, docs/architecture.md "Naming profiles").
 */
import type { ProfileName } from '../profile.ts';
import { tableClauseId, type ClauseId } from '../catalog/clause-id.ts';
import { setGate } from '../versioning/feature-gates.ts';
import { ALPHA, BETA_OFF, BETA_ON } from '../feature-gate-lists.ts';

export type GateStage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface GateSpec {
  /** Name under the svc profile. */
  readonly name: string;
  readonly names?: Readonly<Record<ProfileName, string>>;
  readonly stage: GateStage;
  readonly default: boolean;
  /** Which list of node:2.6 carries it; the clause is `node:2.6/feature-gates/<list>`. */
  readonly list: 'beta-on' | 'beta-off' | 'alpha';
  /** False when the spec describes the gate without printing its name. */
  readonly named: boolean;
}

const agent = (stem: string, tail: string) => ({ svc: `${stem}Nodeagent${tail}`, k8s: `${stem}Kubelet${tail}` });

const g =
  (list: GateSpec['list'], named: boolean) =>
  (name: string | Readonly<Record<ProfileName, string>>): GateSpec => ({
    name: typeof name === 'string' ? name : name.svc,
    names: typeof name === 'string' ? undefined : name,
    stage: list === 'alpha' ? 'ALPHA' : 'BETA',
    default: list === 'beta-on',
    list,
    named,
  });

export const gates: readonly GateSpec[] = [
  ...BETA_ON.map(g('beta-on', true)),
  // Described in words by the spec: upstream names.
  ...[
    agent('', 'CredentialProviders'),
    agent('', 'PodResources'),
    agent('', 'PodResourcesGetAllocatable'),
    agent('Rotate', 'ServerCertificate'),
  ].map(g('beta-on', false)),
  ...['CSIMigrationAWS', 'CSIMigrationAzureFile', 'CSIMigrationGCE'].map(g('beta-on', false)),
  ...BETA_OFF.map(g('beta-off', true)),
  ...['CSIMigrationvSphere'].map(g('beta-off', false)),
  ...ALPHA.map(g('alpha', true)),
  // "(node-agent form)": printed with the upstream spelling, so named under k8s and spelled per profile.
  ...[agent('Disable', 'CloudCredentialProviders'), agent('', 'InUserNamespace')].map(g('alpha', true)),
  ...['AWS', 'AzureDisk', 'AzureFile', 'GCE', 'OpenStack', 'Portworx', 'RBD', 'vSphere']
    .map((v) => `InTreePlugin${v}Unregister`)
    .map(g('alpha', false)),
  ...['CSIMigrationPortworx', 'CSIMigrationRBD'].map(g('alpha', false)),
];

export function gateName(gate: GateSpec, profile: ProfileName): string {
  return gate.names?.[profile] ?? gate.name;
}

export function gatesFor(profile: ProfileName, table: readonly GateSpec[] = gates): ReadonlyMap<string, GateSpec> {
  return new Map(table.map((gt) => [gateName(gt, profile), gt]));
}

export const gateListClause = (gate: GateSpec): ClauseId => tableClauseId(`node:2.6/feature-gates/${gate.list}`);

export type GateResolution =
  | { readonly ok: true; readonly enabled: ReadonlyMap<string, boolean>; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly errors: readonly { gate: string; message: string }[]; readonly warnings: readonly string[] };

/**
 * The effective gates for the `--feature-gates` map: defaults, then AllAlpha / AllBeta turning the
 * unset gates of their stage on or off, then explicit settings. Unknown gates and disabling a GA
 * (non-operational) gate are errors; enabling an alpha gate or touching a deprecated or GA one warns.
 *
 *   resolveGates({ AllAlpha: true }, 'svc').enabled.get('NodeSwap') -> true
 */
export function resolveGates(
  settings: Readonly<Record<string, boolean>>,
  profile: ProfileName,
  table: readonly GateSpec[] = gates,
): GateResolution {
  const known = gatesFor(profile, table);
  const errors: { gate: string; message: string }[] = [];
  const warnings: string[] = [];
  for (const [k, v] of Object.entries(settings)) {
    const gate = known.get(k);
    if (!gate) {
      errors.push({ gate: k, message: `unrecognized feature gate: ${k}` });
      continue;
    }
    if (gate.stage === 'GA' && v === false)
      errors.push({ gate: k, message: `cannot set feature gate ${k} to false, feature is GA and non-operational` });
    else if (gate.stage === 'GA' || gate.stage === 'DEPRECATED')
      warnings.push(
        `feature gate ${k} is ${gate.stage === 'GA' ? 'GA and non-operational' : 'deprecated'}; setting it will not be possible in a future release`,
      );
    else if (gate.stage === 'ALPHA' && v === true) warnings.push(`feature gate ${k} is alpha`);
  }
  if (errors.length > 0) return { ok: false, errors, warnings };
  const allAlpha = settings['AllAlpha'];
  const allBeta = settings['AllBeta'];
  const enabled = new Map<string, boolean>();
  for (const [name, gate] of known) {
    let on = gate.default;
    if (gate.stage === 'ALPHA' && allAlpha !== undefined && name !== 'AllAlpha') on = allAlpha;
    if (gate.stage === 'BETA' && allBeta !== undefined && name !== 'AllBeta') on = allBeta;
    if (gate.stage === 'GA') on = true;
    if (Object.hasOwn(settings, name) && gate.stage !== 'GA') on = settings[name]!;
    enabled.set(name, on);
  }
  return { ok: true, enabled, warnings };
}

/**
 * rest:9.3's feature-gate life cycle as the gate lists of node:2.6 let a daemon show it: an alpha gate
 * "can be enabled", a beta gate that is on by default "can be disabled" (setGate of the versioning
 * model says both settings are accepted and take effect). Only gates the spec names; not the
 * meta-gates AllAlpha and AllBeta, which set a whole stage. The lists name no GA or deprecated gate,
 * so the rest of the life cycle (a GA gate non-operational, disabling it refused) and rule 9's warning
 * have no gate of this daemon to be shown on.
 *
 *   lifecycleGates('svc').enable.includes('NodeSwap') -> true
 */
export function lifecycleGates(profile: ProfileName, table: readonly GateSpec[] = gates): { enable: string[]; disable: string[] } {
  const named = table.filter((g) => g.named && g.name !== 'AllAlpha' && g.name !== 'AllBeta');
  const takes = (stage: 'alpha' | 'beta', value: boolean) => {
    const o = setGate(stage, value);
    return o.accepted && o.enabled === value;
  };
  return {
    enable: takes('alpha', true) ? named.filter((g) => g.stage === 'ALPHA' && !g.default).map((g) => gateName(g, profile)) : [],
    disable: takes('beta', false) ? named.filter((g) => g.stage === 'BETA' && g.default).map((g) => gateName(g, profile)) : [],
  };
}

/** What the life cycle expects of one `--feature-gates` value: each alpha gate it enables can be, each beta gate it disables can be. */
export function lifecycleExpectation(value: string, profile: ProfileName): string {
  const { enable, disable } = lifecycleGates(profile);
  const settings = value.split(',').map((kv) => kv.split('=') as [string, string]);
  const can = [
    ...settings.filter(([g, v]) => v === 'true' && enable.includes(g)).map(([g]) => `alpha gate ${g} can be enabled`),
    ...settings.filter(([g, v]) => v === 'false' && disable.includes(g)).map(([g]) => `beta gate ${g} can be disabled`),
  ];
  return can.length > 0 ? can.join(', ') : 'accepted';
}
