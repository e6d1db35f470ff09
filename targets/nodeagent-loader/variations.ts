/**
 * Legal variations of the reference node-agent loader: answers the spec allows that differ from ours.
 * Each must pass every nodeagent check (test/oracle/nodeagent-faults.test.ts), so the suite cannot
 * fail a loader for a choice the spec leaves to it.
 */
export const nodeagentVariations = [
  {
    name: 'strict-open',
    description: 'rejects every file the spec leaves open (unknown fields, gaps, gates off, missing required fields)',
  },
  { name: 'yaml-output', description: 'prints the effective configuration as YAML' },
  { name: 'omit-zero', description: 'leaves zero values (false, 0, "", empty) out of the printed configuration, as Go\'s omitempty does' },
  { name: 'no-output', description: 'prints nothing: no effective configuration, no JSON errors' },
  {
    name: 'upstream-spellings',
    description: 'prints cpuManagerPolicy "none", memoryManagerPolicy "None", durations in seconds ("60s") and sizes in bytes',
  },
  { name: 'all-paths', description: 'names every field involved in a cross-field rule, the related ones first' },
  {
    name: 'zero-as-unset',
    description:
      "reads an explicit zero of a scalar with a non-zero default (port: 0, registryBurst: 0, imageMinimumGCAge: 0s) as unset and applies the default, as the kubelet's v1beta1 defaulting does",
  },
  {
    name: 'list-paths',
    description: "names the list, not the item, in errors about a list item (providers[0].matchImages), as upstream's validators do",
  },
] as const;

export type NodeagentVariationName = (typeof nodeagentVariations)[number]['name'];
