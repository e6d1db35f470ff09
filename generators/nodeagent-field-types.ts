/**
 * Every wrong-type file of the node-agent configuration, all in one case: for each field of 2.2-2.4
 * (nested members and list items too) and each value of the wrong type for its Type column, one file
 * of defaults holding that value alone. The broad one-violation property draws ~25 of ~250 such
 * files, so a field without sample values (hairpinMode, cpuCFSQuotaPeriod: "not shown" in 2.5) got
 * a verdict of its own only on seeds that drew its file; this case holds them all on every seed.
 *
 * The case shrinks to one file: its shrinker offers each file alone, in order, so a failure found at
 * the k-th file is reported as that file after at most k + 1 further loader calls.
 */
import type fc from 'fast-check';
import type { Profile } from '../reference/profile.ts';
import { configFields, nameIn } from '../reference/nodeagent/config-fields.ts';
import { configApiVersion, configKind } from '../reference/nodeagent/config.ts';
import { violations, type NodeagentCase } from './nodeagent.ts';
import { EveryOneArbitrary } from './every-one.ts';

const cache = new Map<string, readonly NodeagentCase[]>();

/** Every wrong-type file, in the order of the field table: a file of defaults (the one required field set) with the value laid over it. */
export function wrongTypeCases(p: Profile): readonly NodeagentCase[] {
  const hit = cache.get(p.name);
  if (hit) return hit;
  const base = {
    apiVersion: configApiVersion(p),
    kind: configKind(p),
    [nameIn(configFields.find((f) => f.name === 'reservedSystemCPUs')!, p)]: '',
  };
  const out = violations(p)
    .filter((v) => v.category === 'type')
    .map((v) => ({ doc: { ...base, ...v.overlay }, violation: { what: v.what, clause: v.clause } }));
  cache.set(p.name, out);
  return out;
}

/** Every wrong-type file of the profile, as one case (see the module comment). */
export function everyWrongTypeArb(p: Profile): fc.Arbitrary<readonly NodeagentCase[]> {
  return new EveryOneArbitrary(wrongTypeCases(p));
}
