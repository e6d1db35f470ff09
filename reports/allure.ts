/**
 * Allure results made from the run's records: one test per check, named by the check's id and title
 * (its clauses are labels to filter on, not part of the name), with the suite, seed and profile that
 * replay it, and each counterexample's curl transcript and shrunk steps as attachments. Pure: the
 * files are written by reports/write.ts. `npm run report` renders them.
 *
 * Status per check: its worst record decides (runner/verdicts.ts): a failed clause makes it `failed`,
 * an error `broken`, a check that judged nothing `skipped`, anything else `passed`. A check whose every
 * failure the expectations file excuses is `skipped` with "known failure" (as JUnit has it): Allure has
 * no expected failure, and a known one must not look like a regression.
 */
import { createHash } from 'node:crypto';
import type { Attachment, Label, Parameter, StepResult, TestResult } from 'allure-js-commons';
import type { CheckRecord } from '../runner/results.ts';
import { checkOutcomeKind } from '../runner/verdicts.ts';
import type { CheckFootprint } from '../harness/case/index.ts';
import type { Selectable } from '../harness/case/index.ts';

export const ALLURE_DIR = 'allure-results';

/** What a test is named and labelled by: the same fields --focus and --skip select on. */
export type AllureCheck = Selectable;

export interface AllureInput {
  readonly checks: readonly AllureCheck[];
  readonly records: readonly CheckRecord[];
  readonly footprints: readonly CheckFootprint[];
  readonly seed: number;
  readonly profile: string;
  /** Epoch ms the run started: a check's own start is not kept, its wall time is. */
  readonly startedAt: number;
  /** A failure the expectations file excuses. */
  readonly known?: (r: CheckRecord) => boolean;
}

export interface AllureFile {
  readonly name: string;
  readonly content: string;
}

/** Every file of allure-results/ for this run: `<uuid>-result.json` and its attachments. */
export function allureFiles(input: AllureInput): AllureFile[] {
  const files: AllureFile[] = [];
  for (const check of input.checks) {
    const records = input.records.filter((r) => r.check === check.id);
    // A check the run did not reach (a stopped run) has its clauses notChecked by the executor.
    if (records.length === 0) continue;
    const uuid = uuidOf(`${input.startedAt}:${input.seed}:${check.id}`);
    const steps: StepResult[] = [];
    for (const r of records) {
      const cx = r.counterexample;
      if (cx === undefined) continue;
      const attach = (what: string, content: string, ext: string): void => {
        const source = `${uuidOf(`${uuid}:${r.clause}:${what}`)}-attachment.${ext}`;
        files.push({ name: source, content });
        const attachment: Attachment = { name: `${r.clause} ${what}`, source, type: 'text/plain' };
        steps.push({
          name: attachment.name,
          status: 'passed' as TestResult['status'],
          stage: 'finished' as TestResult['stage'],
          statusDetails: {},
          steps: [],
          attachments: [attachment],
          parameters: [],
        });
      };
      attach('curl transcript', cx.curl, 'sh');
      attach('shrunk steps', `${cx.steps.join('\n')}\n\nreplay: ${cx.replay}\n`, 'txt');
    }
    const wallMs = input.footprints.find((f) => f.check === check.id)?.wallMs ?? 0;
    const labels: Label[] = [
      { name: 'suite', value: check.suite },
      { name: 'parentSuite', value: 'svc-conformance' },
      { name: 'check', value: check.id },
      ...check.clauses.map((c) => ({ name: 'clause', value: c })),
      { name: 'framework', value: 'svc-conformance' },
      { name: 'language', value: 'javascript' },
    ];
    const parameters: Parameter[] = [
      { name: 'seed', value: String(input.seed) },
      { name: 'profile', value: input.profile },
    ];
    const result: TestResult = {
      uuid,
      name: `${check.id}: ${check.title}`,
      fullName: `${check.suite}/${check.id}`,
      historyId: hex(`${check.suite}/${check.id}:${input.profile}`),
      testCaseId: hex(`${check.suite}/${check.id}`),
      ...statusOf(records, input.known ?? (() => false)),
      stage: 'finished' as TestResult['stage'],
      steps,
      attachments: [],
      parameters,
      labels,
      links: [],
      start: input.startedAt,
      stop: input.startedAt + wallMs,
    };
    files.push({ name: `${uuid}-result.json`, content: JSON.stringify(result) });
  }
  return files;
}

function statusOf(records: readonly CheckRecord[], known: (r: CheckRecord) => boolean): Pick<TestResult, 'status' | 'statusDetails'> {
  const kind = checkOutcomeKind(records.map((r) => r.verdict));
  if (kind === 'failed') {
    const all = records.filter((r) => r.verdict === 'fail');
    const beyond = all.filter((r) => !known(r));
    const failures = beyond.length > 0 ? beyond : all;
    const message = failures
      .map((f) => `${f.clause}: expected ${f.counterexample?.expected ?? '?'}; observed ${f.counterexample?.observed ?? '?'}`)
      .join('\n');
    const trace = failures
      .map(
        (f) => `${f.clause}\n  replay: ${f.counterexample?.replay ?? ''}\n  steps:\n    ${(f.counterexample?.steps ?? []).join('\n    ')}`,
      )
      .join('\n');
    if (beyond.length === 0)
      return {
        status: 'skipped' as TestResult['status'],
        statusDetails: { message: `known failure (expectations file): ${message}`, trace },
      };
    return { status: 'failed' as TestResult['status'], statusDetails: { message, trace } };
  }
  if (kind === 'error') {
    const error = records.find((r) => r.verdict === 'error')!;
    return { status: 'broken' as TestResult['status'], statusDetails: { message: `${error.clause}: ${error.note ?? 'error'}` } };
  }
  if (kind === 'notChecked')
    return { status: 'skipped' as TestResult['status'], statusDetails: { message: records[0]?.note ?? 'not checked' } };
  return { status: 'passed' as TestResult['status'], statusDetails: {} };
}

const hex = (s: string): string => createHash('md5').update(s).digest('hex');

/** A stable version-4-shaped id: the same run writes the same names. */
function uuidOf(s: string): string {
  const h = createHash('sha256').update(s).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
