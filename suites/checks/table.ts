/**
 * rest:2.5 and rest:4.8/table: Table answers for objects and collections of built-in types, asked for
 * alone and with a JSON fallback. A type without Table support may answer 406 to the Table-only form
 * (rest:2.5.2, recorded) but must then serve the fallback.
 */
import { judgeNegotiation, judgeTableRequest } from '../../harness/case/index.ts';
import fc from 'fast-check';
import type { Check } from '../../harness/case/index.ts';
import { contentArb, namePool, type ContentSpec, type ResName } from '../../generators/ops.ts';
import { namespaceOf, resourceOf, runOp } from '../../harness/interpreters/index.ts';
import { tableMediaType } from '../../reference/media-types.ts';
import { collectionPath, objectPath, resourceTypes } from '../../reference/resources.ts';
import { crdResource } from '../../reference/apply/fixture-type.ts';

/**
 * `customresourcedefinitions`: the definitions collection, narrowed to this run (read only). Upstream's
 * built-in types all have custom Table definitions; CustomResourceDefinitions use the default Table
 * (rest:2.5.1). Always read with the JSON fallback: a target need not serve Tables for it (rest:2.5.2).
 */
type Target = {
  readonly res: ResName | 'namespaces' | 'customresourcedefinitions';
  readonly shape: 'object' | 'collection';
  readonly fallback: boolean;
};

interface TableInput {
  readonly names: readonly (typeof namePool)[number][];
  readonly content: ContentSpec;
  readonly reads: readonly Target[];
}

export const tableShape: Check<TableInput> = {
  id: 'table-shape',
  suite: 'rest-negotiation',
  title: 'Table answers have the Table shape; the default Table has Name (string) and Created At (date)',
  clauses: ['rest:2.5/table', 'rest:2.5.1', 'rest:4.8/table'],
  defaultRuns: 5,
  // Every kind of read on every run: the default Table is judged only on a type without a custom one
  // (on upstream the definitions list alone), which a few random reads of four types missed on some seeds.
  examples: () => [
    {
      names: ['alpha', 'bravo'],
      content: { labels: { app: 'web' }, annotations: {}, data: { k1: 'v1' } },
      reads: [
        { res: 'customresourcedefinitions', shape: 'collection', fallback: true },
        { res: 'configmaps', shape: 'object', fallback: false },
        { res: 'leases', shape: 'collection', fallback: true },
        { res: 'namespaces', shape: 'object', fallback: false },
        { res: 'namespaces', shape: 'collection', fallback: true },
      ],
    },
  ],
  arbitrary: () =>
    fc.record({
      names: fc.uniqueArray(fc.constantFrom(...namePool), { minLength: 1, maxLength: 3 }),
      content: contentArb,
      reads: fc.array(
        fc.record({
          res: fc.constantFrom<Target['res']>('configmaps', 'leases', 'namespaces', 'customresourcedefinitions'),
          shape: fc.constantFrom<'object' | 'collection'>('object', 'collection'),
          fallback: fc.boolean(),
        }),
        { minLength: 1, maxLength: 4 },
      ),
    }),
  describe: (i) => [
    `create configmaps and leases ${i.names.join(', ')} in ns0`,
    ...i.reads.map((r) =>
      r.res === 'customresourcedefinitions'
        ? 'list customresourcedefinitions of this run as Table (JSON fallback)'
        : `get ${r.res} ${r.shape} as Table${r.fallback ? ' (JSON fallback)' : ''}`,
    ),
  ],
  run: async (input, cx) => {
    for (const name of input.names)
      for (const res of ['configmaps', 'leases'] as const) await runOp(cx, { op: 'create', res, ns: 0, name, content: input.content });
    const ns = await namespaceOf(cx, 0);
    const profile = cx.env.profile;
    for (const read of input.reads) {
      const fallback = read.fallback || read.res === 'customresourcedefinitions';
      const accept = fallback ? `${tableMediaType(profile)}, application/json` : tableMediaType(profile);
      let path: string;
      if (read.res === 'customresourcedefinitions') {
        path = collectionPath(crdResource(profile));
      } else if (read.res === 'namespaces') {
        const rt = resourceTypes(profile).namespaces;
        path = read.shape === 'object' ? objectPath(rt, ns) : collectionPath(rt);
      } else {
        const rt = resourceOf(cx, read.res);
        path = read.shape === 'object' ? objectPath(rt, input.names[0]!, ns) : collectionPath(rt, ns);
      }
      // The namespace collection is cluster-wide: narrowed to this case's own namespaces.
      const clusterWide = read.res === 'customresourcedefinitions' || (read.res === 'namespaces' && read.shape === 'collection');
      const query = clusterWide ? [['labelSelector', `${profile.runLabel}=${cx.env.runId}`] as const] : [];
      const r = await cx.send({ method: 'GET', path, query, headers: { accept } });
      const { judgements, verdict } = judgeNegotiation(profile, accept, { builtIn: true }, fallback ? 2 : 1, {
        status: r.status,
        contentType: r.headers['content-type'],
        json: r.json,
      });
      cx.judge(judgements);
      cx.judge(judgeTableRequest(profile, accept, fallback, verdict, r));
    }
  },
};
