/**
 * What a run tested and how it was asked for, as every report names it: the target's kind and a
 * description a person recognises ("embedded reference server", or the server URL with the kubeconfig
 * and context it came from), the command line, the selection and the expectations files. A green run
 * against the suite's own server must never pass for a green run against the user's cluster.
 * Credentials never appear: a kubeconfig is named by its path, the command line is scrubbed.
 *   embedded: { kind: 'embedded', description: 'embedded reference server with faults ignore-limit' }
 *   external: { kind: 'external', description: 'https://10.0.0.1:6443 (kubeconfig /k, context prod)' }
 */
import { redactText } from '../harness/transport/index.ts';
import type { RunPlan } from '../runner/plan.ts';
import type { RunInvocation, RunTarget } from '../runner/results.ts';

export type TargetIdentity = Required<Pick<RunTarget, 'kind' | 'description'>> & Pick<RunTarget, 'reportedVersion'>;

/** What `run` hands the reports beside the plan: the selection flags and the words it was started with. */
export interface RunReportOptions {
  readonly require?: readonly import('./require.ts').Requirement[];
  readonly suite?: readonly string[];
  readonly check?: readonly string[];
  readonly focus?: readonly string[];
  readonly skip?: readonly string[];
  /** The arguments after `svc-conformance`, as typed. */
  readonly argv?: readonly string[];
}

export const EMBEDDED_DESCRIPTION = 'embedded reference server';

/** `source` is the target config's (harness/transport/kubeconfig.ts): "kubeconfig /k (context c)", "--server", ... */
export function targetIdentity(plan: Pick<RunPlan, 'target'>, server: string, source?: string, reportedVersion?: string): TargetIdentity {
  const version = reportedVersion !== undefined ? { reportedVersion } : {};
  const t = plan.target;
  if (t.kind === 'embedded') {
    const extras = [...t.faults.map((f) => `fault ${f}`), ...t.variations.map((v) => `variation ${v}`)];
    return { kind: 'embedded', description: `${EMBEDDED_DESCRIPTION}${extras.length > 0 ? ` with ${extras.join(', ')}` : ''}`, ...version };
  }
  const from =
    source ??
    (t.kubeconfig !== undefined || t.context !== undefined
      ? `kubeconfig ${t.kubeconfig ?? '$KUBECONFIG or ~/.kube/config'}${t.context !== undefined ? `, context ${t.context}` : ''}`
      : undefined);
  // "kubeconfig /k (context c)" reads better inside the parentheses as "kubeconfig /k, context c".
  const shown = from?.replace(/ \(context (.*)\)$/, ', context $1');
  return {
    kind: 'external',
    description: shown === undefined || shown === '--server' ? redactText(server) : `${redactText(server)} (${shown})`,
    ...version,
  };
}

/** A word of the command line as a shell reads it back. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function invocationOf(plan: Pick<RunPlan, 'selection' | 'expectations' | 'replayCommand'>, o: RunReportOptions): RunInvocation {
  const flags = [
    ...(o.suite ?? []).map((s) => `--suite ${s}`),
    ...(o.check ?? []).map((c) => `--check ${c}`),
    ...(o.focus ?? []).map((p) => `--focus ${shellWord(p)}`),
    ...(o.skip ?? []).map((p) => `--skip ${shellWord(p)}`),
    ...(plan.selection.shard !== undefined ? [`--shard ${plan.selection.shard.index}/${plan.selection.shard.count}`] : []),
  ];
  const n = plan.selection.selected.length;
  const command = o.argv !== undefined ? ['svc-conformance', ...o.argv].map(shellWord).join(' ') : plan.replayCommand;
  return {
    command: redactText(command),
    selection: `${n} check${n === 1 ? '' : 's'}${flags.length > 0 ? ` (${flags.join(' ')})` : ' (all)'}`,
    expectations: [...plan.expectations.files],
  };
}

/** "embedded reference server" or the server, for a title or a verdict line; a run from before `description` names its server. */
export function targetText(t: RunTarget): string {
  return t.description ?? t.server ?? 'target not recorded';
}
