/**
 * "Did you mean" for an unknown daemon flag: a flag of this profile one edit away (or the same in
 * another case), else the same option's name under the other profile.
 *
 *   suggestFlag('kube-api-qsp', 'k8s') -> ' (did you mean --kube-api-qps?)'
 *   suggestFlag('kube-api-qps', 'svc') -> ' (did you mean --svc-api-qps? --kube-api-qps is its k8s spelling)'
 */
import type { ProfileName } from '../profile.ts';
import { didYouMean } from '../nodeagent/config.ts';
import { flagName, optionByFlag, options } from './options.ts';

export function suggestFlag(name: string, profile: ProfileName): string {
  const known = options.filter((o) => !o.pattern).map((o) => flagName(o, profile));
  const near = didYouMean(name, known);
  if (near !== '') return near.replace('did you mean ', 'did you mean --');
  const other: ProfileName = profile === 'svc' ? 'k8s' : 'svc';
  const there = optionByFlag(name, other);
  if (there !== undefined && !there.pattern) return ` (did you mean --${flagName(there, profile)}? --${name} is its ${other} spelling)`;
  const nearThere = didYouMean(
    name,
    options.filter((o) => !o.pattern).map((o) => flagName(o, other)),
  );
  const hit = /did you mean (\S+)\?/.exec(nearThere)?.[1];
  const meant = hit === undefined ? undefined : optionByFlag(hit, other);
  return meant === undefined ? '' : ` (did you mean --${flagName(meant, profile)}?)`;
}
