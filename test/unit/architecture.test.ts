/**
 * The architecture self-test: imports flow one way, nothing below scripts/ imports a
 * target, and verdicts are decided in reference/ only. Runs the pure checker of
 * test/unit/architecture/import-rules.ts over every tracked .ts file, and proves the checker fires on
 * planted offenders so an empty result means something.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAY_IMPORT, roomOf, violations, type Violation } from './architecture/import-rules.ts';
import { circles, importGraph } from '../../scripts/dev/import-circles.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Files allowed to decide verdicts outside reference/ (rule `verdict-outside-reference`), each argued;
 * a file not listed here fails at its first offence. None today: the waits for an eventual effect that
 * ran out are judged by `notSeenWithin` of the judge registry (the window and what was seen as data),
 * through its recording version in harness/case.
 */
const VERDICT_OFFENDERS_ALLOWED: ReadonlySet<string> = new Set<string>([]);

/**
 * Import circles (type-level included) still allowed, each the files of one strongly connected
 * component (`npx tsx scripts/dev/import-circles.ts` shows a loop through each): none. A ratchet: a
 * new circle fails here; break it by moving what both files need into a module of its own.
 */
const KNOWN_CIRCLES: ReadonlySet<string> = new Set<string>([]);

function trackedSources(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], { cwd: root, encoding: 'utf8' });
  return out.split('\n').filter((f) => f !== '' && !f.startsWith('node_modules/'));
}

const show = (vs: readonly Violation[]) => vs.map((v) => `${v.file}: ${v.rule}: ${v.detail}`);

describe('architecture', () => {
  const found = trackedSources().flatMap((f) => violations(f, readFileSync(path.join(root, f), 'utf8')));

  it('no file under harness/, suites/ or generators/ imports from targets/', () => {
    expect(show(found.filter((v) => v.rule === 'imports-targets'))).toEqual([]);
  });

  it('imports follow the layer order (reference <- generators <- harness <- suites, targets <- runner <- reports, scripts)', () => {
    expect(show(found.filter((v) => v.rule === 'layer-order'))).toEqual([]);
  });

  it('the shipped command line imports no development script (scripts/dev/)', () => {
    expect(show(found.filter((v) => v.rule === 'shipped-imports-dev'))).toEqual([]);
  });

  it('code outside a room of harness/ imports the room through its index.ts only', () => {
    expect(show(found.filter((v) => v.rule === 'room-door'))).toEqual([]);
  });

  it('harness/ is rooms: no source file directly in it, an index.ts in every room', () => {
    const harness = trackedSources().filter((f) => f.startsWith('harness/'));
    expect(harness.filter((f) => roomOf(f) === undefined)).toEqual([]);
    const rooms = [...new Set(harness.map((f) => roomOf(f)!))].sort();
    expect(rooms.filter((r) => !harness.includes(`harness/${r}/index.ts`))).toEqual([]);
    expect(rooms.length).toBeGreaterThanOrEqual(5);
  });

  it('the import graph has no circle, type-only imports included', () => {
    const found = circles(importGraph(trackedSources(), (f) => readFileSync(path.join(root, f), 'utf8'))).map((c) => c.join(' '));
    expect(found.filter((c) => !KNOWN_CIRCLES.has(c))).toEqual([]);
    expect(
      [...KNOWN_CIRCLES].filter((c) => !found.includes(c)),
      'these circles are gone: remove them from KNOWN_CIRCLES',
    ).toEqual([]);
  });

  it('harness/ and suites/ decide no verdict outside the allow-list of files still being moved', () => {
    const verdicts = found.filter((v) => v.rule === 'verdict-outside-reference');
    expect(show(verdicts.filter((v) => !VERDICT_OFFENDERS_ALLOWED.has(v.file)))).toEqual([]);
    const stale = [...VERDICT_OFFENDERS_ALLOWED].filter((f) => !verdicts.some((v) => v.file === f));
    expect(stale, 'these files no longer offend: remove them from VERDICT_OFFENDERS_ALLOWED').toEqual([]);
  });
});

/**
 * Where a run is assembled. One module starts the reference API server: runner/embedded.ts, the only
 * file that names the server's constructor; it takes a description (the run plan's embedded target, or
 * the same fields) and hands back the TargetConfig and hooks, never a passthrough of the server's own
 * options. One module opens a check environment: runner/session.ts, over the parts runner/env.ts wires
 * (client, guard, cleanup, namespace pool). Everyone else goes through those two, and is listed below
 * as a user, so a new way to run checks shows here: go through runner/executor.ts instead, or argue it.
 */
const SERVER_STARTERS: readonly string[] = ['runner/embedded.ts'];
const ENV_OPENERS: readonly string[] = ['runner/env.ts', 'runner/session.ts'];
/** Who brings up an embedded target through runner/embedded.ts. */
const EMBEDDED_TARGET_USERS: readonly string[] = [
  // A run's target, in the run's first phase, and the controller daemon's private API server beside an
  // external one; both sides of `compare`, when embedded, through it.
  'runner/phases/bring-up.ts',
  // Every bench's server.
  'scripts/dev/bench-target.ts',
  // The servers each reproducer is judged against, with the fault and without.
  'scripts/dev/reproducer-outcomes.ts',
  // `serve`.
  'scripts/serve-cli.ts',
];
/** Who opens a check environment through runner/session.ts. */
const SESSION_USERS: readonly string[] = [
  // A run's groups of checks.
  'runner/check-stage.ts',
  // One per side of `compare`, in its lockstep stage.
  'runner/phases/lockstep-stage.ts',
  // Every bench's environment.
  'scripts/dev/bench-target.ts',
];

/** Files outside test/ whose code (comments and function names of definitions left out) matches. */
function callers(pattern: RegExp): string[] {
  return trackedSources()
    .filter((f) => !f.startsWith('test/'))
    .filter((f) =>
      pattern.test(
        readFileSync(path.join(root, f), 'utf8')
          .replace(/^\s*(\/\/|\*).*$/gm, '')
          .replace(/(export )?(async )?function \w+\(/g, ''),
      ),
    )
    .sort();
}

/** A call of the server's constructor, or holding it by name (an import, a property of a dynamic import). */
const STARTS_SERVER = /\bstartReferenceServer\s*\(|\bimport\s*(type\s*)?\{[^}]*\bstartReferenceServer\b|\.startReferenceServer\b/;
/** Opening an environment, or wiring one of its parts by hand. */
const OPENS_ENV = /\b(openEnv|createGuardedTarget|registerCleanup|identitiesClient)\s*\(|\bnew NamespacePool\b/;

describe('one way to run checks', () => {
  it('one module starts the reference API server, from a description', () => {
    expect(callers(STARTS_SERVER)).toEqual([...SERVER_STARTERS].sort());
    expect(readFileSync(path.join(root, 'runner/embedded.ts'), 'utf8')).not.toMatch(/\bReferenceServerOptions\b/);
  });

  it('the others bring up an embedded target through it', () => {
    expect(callers(/\bstartEmbeddedTarget\s*\(/)).toEqual([...EMBEDDED_TARGET_USERS].sort());
  });

  it('one module opens a check environment, over the parts one file wires', () => {
    expect(callers(OPENS_ENV)).toEqual([...ENV_OPENERS].sort());
  });

  it('the others open theirs through it', () => {
    expect(callers(/\bopenSession\s*\(/)).toEqual([...SESSION_USERS].sort());
  });

  it('the patterns catch a planted way round the owners', () => {
    expect(STARTS_SERVER.test("import { startReferenceServer as go } from '../targets/api-server/index.ts';")).toBe(true);
    expect(STARTS_SERVER.test("const s = await (await import('../targets/api-server/index.ts')).startReferenceServer({ profile });")).toBe(
      true,
    );
    expect(STARTS_SERVER.test('const s = await startReferenceServer({ profile });')).toBe(true);
    expect(OPENS_ENV.test('const pool = new NamespacePool(target, o);')).toBe(true);
    expect(OPENS_ENV.test('const target = createGuardedTarget(client, identity);')).toBe(true);
  });
});

describe('the architecture checker fires on planted offenders', () => {
  it('flags a planted inline verdict in a new harness or suites file, by import and by literal', () => {
    const byImport = violations(
      'suites/checks/planted.ts',
      "import { rule, type Judgement } from '../../reference/judgement.ts';\nexport const j = rule('rest:2.2.1', true, 'e', 'o');\n",
    );
    expect(byImport).toEqual([
      { file: 'suites/checks/planted.ts', rule: 'verdict-outside-reference', detail: 'imports rule from reference/judgement.ts' },
    ]);
    const aliased = violations('harness/planted.ts', "import { pass as ok } from '../reference/judgement.ts';\n");
    expect(aliased.map((v) => v.rule)).toEqual(['verdict-outside-reference']);
    const literal = violations(
      'harness/planted.ts',
      "export const j = { clause: 'rest:2.2.1', verdict: 'fail', expected: 'x', observed: 'y' };\n",
    );
    expect(literal).toEqual([
      { file: 'harness/planted.ts', rule: 'verdict-outside-reference', detail: "line 1: a Judgement literal with verdict 'fail'" },
    ]);
    expect(
      violations('suites/checks/planted.ts', "import { notSeenWithin } from '../../reference/judgement.ts';\n").map((v) => v.rule),
    ).toEqual(['verdict-outside-reference']);
    // The same planted file is not in the allow-list, so the suite test above would fail on it.
    expect(VERDICT_OFFENDERS_ALLOWED.has('suites/checks/planted.ts')).toBe(false);
  });

  it('flags an import round the door of a room from outside it, and lets siblings and tests in', () => {
    expect(violations('suites/checks/planted.ts', "import { runOp } from '../../harness/interpreters/rest-interpreter.ts';\n")).toEqual([
      {
        file: 'suites/checks/planted.ts',
        rule: 'room-door',
        detail: 'imports harness/interpreters/rest-interpreter.ts (outside harness/interpreters/, import harness/interpreters/index.ts)',
      },
    ]);
    expect(violations('harness/case/planted.ts', "import type { Target } from '../transport/exchange.ts';\n").map((v) => v.rule)).toEqual([
      'room-door',
    ]);
    expect(violations('runner/planted.ts', "type F = import('../harness/case/footprint.ts').RunFootprint;\n").map((v) => v.rule)).toEqual([
      'room-door',
    ]);
    expect(violations('suites/checks/planted.ts', "import { runOp } from '../../harness/interpreters/index.ts';\n")).toEqual([]);
    expect(violations('harness/case/planted.ts', "import { Tally } from './tally.ts';\n")).toEqual([]);
    expect(violations('test/planted.test.ts', "import { runOp } from '../harness/interpreters/rest-interpreter.ts';\n")).toEqual([]);
  });

  it('finds a planted import circle, a type-only one too, and no circle in a chain', () => {
    const files: Record<string, string> = {
      'harness/case/a.ts': "import type { B } from './b.ts';\nexport type A = B;\n",
      'harness/case/b.ts': "export type B = import('./c.ts').C;\n",
      'harness/case/c.ts': "import { a } from './a.ts';\nexport type C = 1;\n",
      'harness/case/d.ts': "import { a } from './a.ts';\n",
    };
    const graph = importGraph(Object.keys(files), (f) => files[f]!);
    expect(circles(graph)).toEqual([['harness/case/a.ts', 'harness/case/b.ts', 'harness/case/c.ts']]);
    delete files['harness/case/c.ts'];
    expect(circles(importGraph(Object.keys(files), (f) => files[f]!))).toEqual([]);
    expect(KNOWN_CIRCLES.has('harness/case/a.ts harness/case/b.ts harness/case/c.ts')).toBe(false);
  });

  it('lets harness and suites handle judgements as data: type imports, reading a verdict, records', () => {
    expect(
      violations(
        'harness/case/tally.ts',
        "import type { Judgement } from '../../reference/judgement.ts';\nimport { UnsupportedByModel } from '../../reference/judgement.ts';\nconst f = (j: Judgement) => j.verdict === 'pass';\n",
      ),
    ).toEqual([]);
    expect(violations('harness/run-check.ts', "const r = { clause: 'c', check: 'x', verdict: 'fail', count: 1 };\n")).toEqual([]);
    // reference/ is where verdicts belong.
    expect(violations('reference/planted.ts', "import { pass } from './judgement.ts';\n")).toEqual([]);
  });

  it('flags imports of targets/ below scripts/, static, dynamic and type-only', () => {
    expect(
      violations('generators/planted.ts', "import { pathSegments } from '../targets/nodeagent-loader/loader.ts';\n").map((v) => v.rule),
    ).toEqual(['imports-targets']);
    expect(violations('harness/planted.ts', "const m = await import('../targets/api-server/index.ts');\n").map((v) => v.rule)).toEqual([
      'imports-targets',
    ]);
    expect(
      violations('suites/planted.ts', "import type { FaultName } from '../targets/api-server/faults.ts';\n").map((v) => v.rule),
    ).toEqual(['imports-targets']);
    expect(violations('scripts/planted.ts', "import { startReferenceServer } from '../targets/api-server/index.ts';\n")).toEqual([]);
  });

  it('flags imports against the layer order, and of test files from the product', () => {
    expect(violations('reference/planted.ts', "import { runOp } from '../harness/rest-interpreter.ts';\n").map((v) => v.rule)).toEqual([
      'layer-order',
    ]);
    expect(violations('generators/planted.ts', "export { runCheck } from '../runner/run-check.ts';\n").map((v) => v.rule)).toEqual([
      'layer-order',
    ]);
    expect(violations('harness/planted.ts', "import { checks } from '../suites/checks/index.ts';\n").map((v) => v.rule)).toEqual([
      'layer-order',
    ]);
    expect(violations('targets/planted.ts', "import { checks } from '../suites/checks/index.ts';\n").map((v) => v.rule)).toEqual([
      'layer-order',
    ]);
    expect(violations('reports/planted.ts', "import { x } from '../scripts/cli.ts';\n").map((v) => v.rule)).toEqual(['layer-order']);
    expect(violations('runner/planted.ts', "import { writeReports } from '../reports/index.ts';\n").map((v) => v.rule)).toEqual([
      'layer-order',
    ]);
    expect(violations('reports/planted.ts', "import { shardOf } from '../runner/shard.ts';\n")).toEqual([]);
    expect(violations('scripts/planted.ts', "import { x } from '../test/oracle/daemon-run.ts';\n").map((v) => v.rule)).toEqual([
      'layer-order',
    ]);
    // Comments and strings are not imports; tests may import anything.
    expect(violations('reference/planted.ts', "// import { x } from '../harness/a.ts'\nconst s = \"from '../harness/a.ts'\";\n")).toEqual(
      [],
    );
    expect(violations('test/planted.test.ts', "import { x } from '../targets/api-server/index.ts';\n")).toEqual([]);
  });

  it('flags a shipped module that imports a development script', () => {
    expect(violations('scripts/cli.ts', "import { runAgainst } from './dev/in-process-run.ts';\n").map((v) => v.rule)).toEqual([
      'shipped-imports-dev',
    ]);
    expect(violations('runner/planted.ts', "import { x } from '../scripts/dev/bench.ts';\n").map((v) => v.rule)).toEqual([
      'shipped-imports-dev',
      'layer-order',
    ]);
    expect(violations('scripts/dev/mutation.ts', "import { runAgainst } from './in-process-run.ts';\n")).toEqual([]);
  });

  it('encodes the layer DAG without cycles', () => {
    const seen = new Set<string>();
    const visit = (l: keyof typeof MAY_IMPORT, stack: readonly string[]): void => {
      expect(stack, `cycle through ${l}`).not.toContain(l);
      if (seen.has(l)) return;
      for (const below of MAY_IMPORT[l]) visit(below, [...stack, l]);
      seen.add(l);
    };
    for (const l of Object.keys(MAY_IMPORT) as (keyof typeof MAY_IMPORT)[]) visit(l, []);
    expect(seen.size).toBe(8);
  });
});
