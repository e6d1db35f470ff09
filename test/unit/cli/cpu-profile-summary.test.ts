// The bench's CPU table: samples land in the folder of the nearest file frame (node's own
// code counts for its caller), in `transpiling` when a transform is on the stack, nowhere when idle;
// each process's shares are weighted by its own CPU time, and a bundle's lines map back to sources.
import { describe, expect, it } from 'vitest';
import {
  bundleModulesOf,
  cpuSummaryLines,
  folderOfFrame,
  processKind,
  summariseCpu,
  TRANSPILING,
  type CpuProfile,
  type ProcessProfile,
} from '../../../scripts/dev/cpu-profile-summary.ts';

const ROOT = 'file:///repo';
const NM = 'file:///elsewhere/node_modules';
const frame = (id: number, functionName: string, url: string, children: number[] = [], lineNumber = 0) => ({
  id,
  callFrame: { functionName, url, lineNumber },
  children,
});

// (root) -> judge (reference/) -> JSON.parse (node internal)
//        -> send (harness/)
//        -> ssrTransform (vite) -> native transform
//        -> (idle), (garbage collector)
//        -> cli.js line 12 (a bundle: lines 10+ are reference/b.ts)
const profile: CpuProfile = {
  nodes: [
    frame(1, '(root)', '', [2, 5, 6, 4, 8, 9]),
    frame(2, 'judge', `${ROOT}/reference/watch-oracle.ts`, [3]),
    frame(3, 'parse', 'node:internal/deps/json'),
    frame(4, '(idle)', ''),
    frame(5, 'send', `${ROOT}/harness/client.ts`),
    frame(6, 'ssrTransformScript', `${NM}/vite/dist/node/chunks/config.js`, [7]),
    frame(7, 'transformSync', ''),
    frame(8, '(garbage collector)', ''),
    frame(9, 'decide', `${ROOT}/dist/cli.js`, [], 12),
  ],
  samples: [3, 3, 3, 4, 4, 5, 7, 8, 9],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
};
const bundles = new Map([
  [`${ROOT}/dist/cli.js`, bundleModulesOf(['// harness/a.ts', ...Array(9).fill('x'), '// reference/b.ts', 'y', 'z'].join('\n'))],
]);
const proc = (argv: string[], seconds: number): ProcessProfile => ({
  pid: 1,
  argv,
  cpuUsage: { user: seconds * 1e6 * 0.75, system: seconds * 1e6 * 0.25 },
  profile,
});

describe('CPU profile summary', () => {
  it('charges samples to folders, transpiling and GC, drops idle, and weights by the process CPU', () => {
    const s = summariseCpu([proc(['node', '/repo/bin/svc-conformance.mjs', 'run'], 1.4)], ROOT, bundles);
    const row = (what: string) => s.byFolder.find((r) => r.what === what)?.cpuSeconds;
    // 7 busy samples: reference/ 3 + 1 (the bundle's line 12), harness/ 1, transpiling 1, GC 1.
    expect(row('reference/')).toBeCloseTo(0.8);
    expect(row('harness/')).toBeCloseTo(0.2);
    expect(row(TRANSPILING)).toBeCloseTo(0.2);
    expect(row('garbage collector')).toBeCloseTo(0.2);
    expect(s.byFolder.reduce((a, r) => a + r.cpuSeconds, 0)).toBeCloseTo(1.4);
    expect(s.byProcess).toEqual([{ what: processKind(['node', '/repo/bin/svc-conformance.mjs']), cpuSeconds: 1.4, processes: 1 }]);
  });

  it('maps frames: package names, scoped packages, the daemon bundle, node internals', () => {
    expect(folderOfFrame(`${NM}/@vitest/runner/dist/index.js`, 0, ROOT, new Map())).toBe('node_modules/@vitest/runner');
    expect(folderOfFrame(`${ROOT}/node_modules/.cache/svc-conformance/controller-daemon-1-x.mjs`, 0, ROOT, new Map())).toMatch(
      /^targets\//,
    );
    expect(folderOfFrame(`${ROOT}/dist/controller-daemon/chunk-ABC.mjs`, 0, ROOT, new Map())).toMatch(/^targets\//);
    expect(folderOfFrame('node:internal/modules/esm/loader', 0, ROOT, new Map())).toBeUndefined();
    expect(folderOfFrame(`${ROOT}/dist/cli.js`, 3, ROOT, bundles)).toBe('harness/');
  });

  it('tells processes apart and prints what the tree spent outside node', () => {
    expect(processKind(['node', '/x/node_modules/vitest/dist/workers/forks.js'])).toMatch(/vitest worker/);
    expect(processKind(['node', '/repo/node_modules/.cache/svc-conformance/controller-daemon-1-x.mjs', '--profile=svc'])).toMatch(/daemon/);
    const s = summariseCpu(
      [proc(['node', '/repo/bin/svc-conformance.mjs'], 1), proc(['node', '/x/vitest/dist/workers/forks.js'], 2)],
      ROOT,
      bundles,
    );
    const lines = cpuSummaryLines(s, { user: 3.5, system: 0.5 }, 9);
    expect(lines.find((l) => l.includes('not node'))).toMatch(/1\.00\s+25\.0%/);
    expect(lines[0]).toMatch(/4\.0 s user\+sys/);
  });
});
