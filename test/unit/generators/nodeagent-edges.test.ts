// Contracts of the edge files (generators/nodeagent-edges.ts): on every seed the same files, grouped by
// the clause each decides, the same groups in both profiles; every rule violation, accepted edge,
// cross-rule keep and boundary value of the field table is among them, judged valid or invalid by the
// model alone; each clause's case shrinks to each of its files alone and no further.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'yaml';
import { profiles } from '../../../reference/profile.ts';
import { edgeClauses, edgeFiles, edgeFilesOf, everyEdgeFileArb } from '../../../generators/nodeagent-edges.ts';
import { boundaryVerdicts, toYaml, violations } from '../../../generators/nodeagent.ts';
import { validateNodeagentConfig } from '../../../reference/nodeagent/config.ts';
import { validateCredentialProviderConfig } from '../../../reference/nodeagent/credential-provider.ts';
import { nameIn } from '../../../reference/nodeagent/config-fields.ts';

describe.each(['svc', 'k8s'] as const)('edge files (%s)', (name) => {
  const p = profiles[name];
  const files = edgeFiles(p);

  it('the same groups as the svc profile (check ids are built from them)', () => {
    expect(edgeClauses(p)).toEqual(edgeClauses(profiles.svc));
  });

  it('the same list on every seed: no draw decides which file is judged', () => {
    for (const clause of ['node:2.2/iptablesMasqueradeBit', 'node:2.2/shutdownGracePeriod', 'node:2.1/matchImages'] as const) {
      const [a, b, c] = [1, 7, 4242].map((seed) => fc.sample(everyEdgeFileArb(p, clause), { seed, numRuns: 1 })[0]);
      expect(a).toEqual(edgeFilesOf(p, clause));
      expect(b).toEqual(a);
      expect(c).toEqual(a);
    }
  });

  it('holds every rule violation and every boundary value of the field table, each once', () => {
    const texts = new Set(files.map((f) => toYaml(f.doc)));
    expect(texts.size).toBe(files.length);
    for (const v of violations(p).filter((x) => x.category === 'rule')) {
      expect(
        files.some(
          (f) =>
            f.violation?.clause === v.clause && Object.entries(v.overlay).every(([k, x]) => JSON.stringify(f.doc[k]) === JSON.stringify(x)),
        ),
        v.what,
      ).toBe(true);
    }
    for (const b of boundaryVerdicts(p)) {
      const k = nameIn(b.field, p);
      expect(
        // apiVersion, kind, the required reservedSystemCPUs and the value.
        files.some((f) => f.file === 'config' && Object.keys(f.doc).length === 4 && f.doc[k] === b.value),
        `${k} = ${String(b.value)}`,
      ).toBe(true);
    }
  });

  it('decides both sides of the rules whose verdicts moved with the seed against upstream', () => {
    const sides = (clause: Parameters<typeof edgeFilesOf>[1]) =>
      new Set(edgeFilesOf(p, clause).map((f) => (f.violation ? 'invalid' : 'valid')));
    // Equal bits (the cross rule) beside the 0-31 range, valid and invalid.
    const bits = edgeFilesOf(p, 'node:2.2/iptablesMasqueradeBit').map((f) => f.doc);
    expect(bits.some((d) => d.iptablesMasqueradeBit !== undefined && d.iptablesMasqueradeBit === d.iptablesDropBit)).toBe(true);
    expect(bits.some((d) => d.iptablesMasqueradeBit === 32)).toBe(true);
    expect(sides('node:2.2/iptablesMasqueradeBit')).toEqual(new Set(['valid', 'invalid']));
    // A sub-second shutdownGracePeriod, valid for the model (2.2 states no lower bound).
    expect(
      edgeFilesOf(p, 'node:2.2/shutdownGracePeriod').some((f) => f.doc.shutdownGracePeriod === '300ms' && f.violation === undefined),
    ).toBe(true);
    // Globs in the port and in the path of a matchImages pattern, each its own file.
    const patterns = edgeFilesOf(p, 'node:2.1/matchImages').map((f) => (f.doc.providers as { matchImages?: unknown }[])[0]?.matchImages);
    expect(patterns).toContainEqual(['registry.io:*']);
    expect(patterns).toContainEqual(['registry.io/team/*']);
  });

  it('each file is judged by the model: an invalid one under its group, a valid one open at most in its group', () => {
    for (const f of files) {
      const model = f.file === 'config' ? validateNodeagentConfig(f.doc, p) : validateCredentialProviderConfig(f.doc, p);
      const what = `${f.group}: ${toYaml(f.doc)}`;
      if (f.violation) {
        expect(model.errors[0]?.clause, what).toBe(f.group);
        expect(f.violation.clause, what).toBe(f.group);
      } else {
        expect(model.errors, what).toEqual([]);
        // A config file decides nothing the spec leaves open; a valid credential file only its open exec apiVersion.
        expect(
          model.unspecified.map((u) => u.clause),
          what,
        ).toEqual(f.file === 'config' ? [] : model.unspecified.map(() => f.group));
      }
      expect(parse(toYaml(f.doc), { version: '1.1' })).toEqual(f.doc);
    }
  });

  it("shrinks to each of a clause's files alone, and a file alone does not shrink", () => {
    const arb = everyEdgeFileArb(p, 'node:2.2/iptablesMasqueradeBit');
    const all = fc.sample(arb, { seed: 3, numRuns: 1 })[0]!;
    const shrunk = [...arb.shrink(all, undefined)].map((v) => v.value);
    expect(shrunk).toEqual(edgeFilesOf(p, 'node:2.2/iptablesMasqueradeBit').map((f) => [f]));
    expect([...arb.shrink(shrunk[0]!, undefined)]).toEqual([]);
  });
});
