/**
 * Legal variations of the reference controller daemon: behaviour the spec allows that differs from
 * ours, most of it the way the upstream kube-controller-manager 1.24 behaves. Each must pass every
 * daemon check (test/oracle/daemon-faults.test.ts), so the suite cannot fail a daemon for a choice the
 * spec leaves to it.
 */
/** Variation `slow`: each answer comes later than the suite's nominal probe timeout (1 s), so only patience passes it; each start comes late too. */
export const SLOW_MS = { start: 500, answer: 1200 } as const;

export const daemonVariations = [
  {
    name: 'help-in-words',
    description:
      'states defaults in the help text\'s own words: "Default is 24." for the dual-stack masks (as upstream), durations in their shortest form (1m), strings unquoted',
  },
  { name: 'healthz-only', description: 'serves /healthz only: /readyz and /livez, always allowed, answer 404 (as upstream 1.24)' },
  {
    name: 'needs-ignored',
    description:
      'accepts an option set without the option it needs (--cluster-cidr without --allocate-node-cidrs) and ignores it (as upstream)',
  },
  {
    name: 'main-loop-validation',
    description:
      'checks control-loop values (--attach-detach-reconcile-sync-period) only when it gains leadership, then exits 1 (as upstream 1.24 starting its controllers)',
  },
  {
    name: 'slow',
    description: `starts ${SLOW_MS.start} ms late and answers every HTTPS request ${SLOW_MS.answer} ms late, as on a busy machine (node:2.6 and node:5 bound no start or answer time: slow is not wrong)`,
  },
] as const;

export type DaemonVariationName = (typeof daemonVariations)[number]['name'];

export function daemonVariationByName(name: string): DaemonVariationName | undefined {
  return daemonVariations.find((v) => v.name === name)?.name;
}

/** A duration as Go prints it, shortened: 1m0s -> 1m, 12h0m0s -> 12h (both read back as the same value). */
const shortDuration = (d: string) => d.replace(/(?<=[hm])0s$/, '').replace(/(?<=h)0m$/, '');

/** `help-in-words`: the reference help text rewritten with the other legal spellings of its defaults. */
export function helpInWords(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (/--node-cidr-mask-size-ipv[46] /.test(line)) return line.replace(/ \(default (\d+)\)$/, ' Default is $1.');
      return line
        .replace(/\(default ((?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?(?:ms|s))\)$/, (_m, d: string) => `(default ${shortDuration(d)})`)
        .replace(/\(default "([^"]*)"\)$/, '(default $1)');
    })
    .join('\n');
}
