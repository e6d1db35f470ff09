/**
 * A planted fault for each option of the controller daemon (oracle strength: every option row a default
 * run passes has a fault that fails it). An option with a number, duration, bool, string or list
 * default: `default-changed/<option>` prints and uses another default for that option alone (one more,
 * a second longer, the opposite, another word). Any other option (no default, a map or a certificate
 * pair): `option-missing/<option>`, a daemon built without that option, which leaves it out of --help
 * and refuses it as an unknown flag, as pflag does. Kept apart from faults.ts, whose lookup reads both.
 */
import { options } from '../../reference/controller-daemon/options.ts';
import { withDefaults } from '../../reference/controller-daemon/effective.ts';
import type { OptionValue } from '../../reference/controller-daemon/types.ts';
import type { DaemonFault } from './fault-type.ts';

/** Another value of the same type, or undefined where the type has no obvious neighbour (maps, certificate pairs). */
function another(v: OptionValue): OptionValue | undefined {
  if (typeof v === 'bigint') return v + 1_000_000_000n;
  if (typeof v === 'number') return Number.isInteger(v) ? v + 1 : v * 2 + 1;
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'string') return v === '' ? 'other' : `${v}-other`;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return [...(v as readonly string[]), 'other'];
  return undefined;
}

const specDefaults = withDefaults({}, 'svc');

/**
 * Options a missing-option fault cannot stand for: a name pattern has no row of its own in --help, and
 * the gate list has faults of its own (faults.ts) and continuation lines a dropped row would orphan.
 */
const missable = (o: (typeof options)[number]) => o.pattern === undefined && o.type !== 'gates';

export const daemonDefaultFaults: readonly DaemonFault[] = options.flatMap((o): DaemonFault[] => {
  const d = specDefaults[o.name];
  const changed = d === undefined ? undefined : another(d);
  if (changed === undefined)
    return missable(o)
      ? [
          {
            name: `option-missing/${o.name}`,
            clause: o.clause,
            description: `has no --${o.name}: absent from --help, refused as an unknown flag`,
            lacksOption: o.name,
          },
        ]
      : [];
  return [
    {
      name: `default-changed/${o.name}`,
      clause: o.clause,
      description: `prints and uses default ${String(changed)} for --${o.name} instead of the spec's ${String(d)}`,
      defaults: { [o.name]: changed },
    },
  ];
});
