/**
 * `--controllers` (node:2.6/controllers): `*` enables every on-by-default controller, `name` enables one,
 * `-name` disables one. As upstream, the first item naming a controller decides it; `*` only decides
 * the controllers no item names.
 *
 *   enabledControllers(['*', '-job']).has('job')            -> false
 *   enabledControllers(['*']).has('bootstrapsigner')         -> false (off by default)
 *   enabledControllers(['tokencleaner']).has('deployment')   -> false (no `*`)
 */
export const knownControllers = [
  'attachdetach',
  'bootstrapsigner',
  'cloud-node-lifecycle',
  'clusterrole-aggregation',
  'cronjob',
  'csrapproving',
  'csrcleaner',
  'csrsigning',
  'daemonset',
  'deployment',
  'disruption',
  'endpoint',
  'endpointslice',
  'endpointslicemirroring',
  'ephemeral-volume',
  'garbagecollector',
  'horizontalpodautoscaling',
  'job',
  'namespace',
  'nodeipam',
  'nodelifecycle',
  'persistentvolume-binder',
  'persistentvolume-expander',
  'podgc',
  'pv-protection',
  'pvc-protection',
  'replicaset',
  'replicationcontroller',
  'resourcequota',
  'root-ca-cert-publisher',
  'route',
  'service',
  'serviceaccount',
  'serviceaccount-token',
  'statefulset',
  'tokencleaner',
  'ttl',
  'ttl-after-finished',
] as const;

export const offByDefault: ReadonlySet<string> = new Set(['bootstrapsigner', 'tokencleaner']);

const known: ReadonlySet<string> = new Set(knownControllers);

/** Items that are neither `*`, a known name nor `-` and a known name. */
export function unknownControllerItems(list: readonly string[]): string[] {
  return list.filter((item) => item !== '*' && !known.has(item.startsWith('-') ? item.slice(1) : item));
}

export function isControllerEnabled(name: string, list: readonly string[]): boolean {
  let star = false;
  for (const item of list) {
    if (item === name) return true;
    if (item === `-${name}`) return false;
    if (item === '*') star = true;
  }
  return star && !offByDefault.has(name);
}

export function enabledControllers(list: readonly string[]): Set<string> {
  return new Set(knownControllers.filter((c) => isControllerEnabled(c, list)));
}
