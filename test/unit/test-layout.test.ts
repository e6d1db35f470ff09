// The folder decides a self-test's project (vitest.config.ts): a test file elsewhere under test/ would
// be left out of `npm test` without a word. One helper starts the reference server for tests, and
// checks run through planRun -> executeRun: in the self-tests and in the scripts (the benches) alike.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const files = readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' }).map((f) => `test/${f.replaceAll('\\', '/')}`);
const SERVER_HELPER = 'test/helpers/reference-server.ts';
/** Naming the server's constructor: a call, an import of it, a property of a dynamic import. */
const NAMES_CONSTRUCTOR = /\bstartReferenceServer\b/;
/** Running a check, or opening its environment, round the plan and its executor. */
const RUNS_CHECKS_DIRECTLY = /\b(runCheck|openSession)\s*\(/;
/**
 * Test files that run checks round planRun -> executeRun (test/helpers/planned-run.ts is the way), each
 * with the reason at its top: it tests the unit itself, not a run of checks. Never add a file that
 * only wants a shortcut.
 */
const DIRECT_CHECK_RUNNERS: readonly string[] = ['test/unit/harness/unsupported-by-model.test.ts'];
/** Running a check round the executor: only runner/ does (its stages, confirmation, reproduction). */
const CALLS_RUN_CHECK = /\brunCheck\s*\(/;
/** Every source folder but runner/ and test/ (the self-tests have their own rule above). */
const NOT_RUNNER = ['bin', 'generators', 'harness', 'reference', 'reports', 'scripts', 'suites', 'targets'];

const withoutComments = (text: string) => text.replace(/^\s*(\/\/|\*).*$/gm, '');

/** Of `sources` (path, text), those outside runner/ that call runCheck. */
function runCheckCallers(sources: readonly { file: string; text: string }[]): string[] {
  return sources.filter((s) => !s.file.startsWith('runner/') && CALLS_RUN_CHECK.test(withoutComments(s.text))).map((s) => s.file);
}

const nonRunnerSources = () =>
  NOT_RUNNER.flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .map((f) => `${dir}/${f.replaceAll('\\', '/')}`)
      .filter((f) => /\.(ts|mts|mjs)$/.test(f))
      .map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') })),
  );

describe('the test folders', () => {
  it('every test file is under test/unit/ or test/oracle/', () => {
    const tests = files.filter((f) => f.endsWith('.test.ts'));
    expect(tests.length).toBeGreaterThan(200);
    expect(tests.filter((f) => !/^test\/(unit|oracle)\//.test(f))).toEqual([]);
  });

  it(`only ${SERVER_HELPER} starts the reference server`, () => {
    const code = (f: string) => readFileSync(path.join(root, f), 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '');
    const starters = files.filter(
      (f) =>
        f.endsWith('.ts') &&
        f !== 'test/unit/test-layout.test.ts' &&
        f !== 'test/unit/architecture.test.ts' &&
        NAMES_CONSTRUCTOR.test(code(f)),
    );
    expect(starters).toEqual([SERVER_HELPER]);
  });

  it('self-tests run checks through planRun and the executor, but the listed unit tests', () => {
    const code = (f: string) => readFileSync(path.join(root, f), 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '');
    const direct = files.filter((f) => f.endsWith('.ts') && f !== 'test/unit/test-layout.test.ts' && RUNS_CHECKS_DIRECTLY.test(code(f)));
    expect(direct, 'run checks with test/helpers/planned-run.ts').toEqual([...DIRECT_CHECK_RUNNERS].sort());
    // Each listed file says at its top why it calls runCheck or openSession itself.
    for (const f of DIRECT_CHECK_RUNNERS)
      expect(readFileSync(path.join(root, f), 'utf8').split('\n')[0], f).toMatch(/^\/\/ Calls (runCheck|openSession) itself: /);
  });

  it('the direct-run pattern catches a planted call, not a mention', () => {
    expect(RUNS_CHECKS_DIRECTLY.test('const records = await runCheck(checkById(id)!, env, { seed: 1, runs: 1 });')).toBe(true);
    expect(RUNS_CHECKS_DIRECTLY.test('const opened = openSession({ target, profile, runId, settings });')).toBe(true);
    expect(RUNS_CHECKS_DIRECTLY.test("import { runPlanned } from '../helpers/planned-run.ts';")).toBe(false);
  });

  it('scripts (the benches included) and every layer but runner/ run checks through planRun and the executor', () => {
    const sources = nonRunnerSources();
    expect(sources.some((s) => s.file === 'scripts/dev/bench-watch.ts')).toBe(true);
    expect(runCheckCallers(sources), 'plan the run (planRun) and execute it (executeRun), as scripts/dev/bench-run.ts does').toEqual([]);
  });

  it('the runCheck rule flags a planted bench, not runner/ or a mention', () => {
    const planted = [
      {
        file: 'scripts/dev/bench-planted.ts',
        text: 'const records = await runCheck(check, opened.env, { seed: 7, runs: 20 }, footprint);',
      },
      { file: 'runner/phases/stages.ts', text: 'const records = await runCheck(check, env, opts, footprint);' },
      {
        file: 'scripts/dev/bench-mention.ts',
        text: '// runCheck(check, env) would skip the executor\nimport { executeRun } from "../../runner/executor.ts";',
      },
    ];
    expect(runCheckCallers(planted)).toEqual(['scripts/dev/bench-planted.ts']);
  });

  it('the pattern catches a planted start round the helper', () => {
    expect(NAMES_CONSTRUCTOR.test("import { startReferenceServer } from '../../targets/api-server/index.ts';")).toBe(true);
    expect(
      NAMES_CONSTRUCTOR.test("const s = await (await import('../../targets/api-server/index.ts')).startReferenceServer({ profile });"),
    ).toBe(true);
    expect(NAMES_CONSTRUCTOR.test('const s = await referenceServer({ profile: "k8s" });')).toBe(false);
  });
});
