/**
 * `svc-conformance rejudge DIR` (docs/rejudge.md): a saved run judged again with the current model.
 * Exit 0 nothing changed, 1 a verdict changed, 2 no record, or one of an incompatible schema.
 */
import type { Command } from '@commander-js/extra-typings';
import { rejudgeDir, REJUDGED_DIR } from '../reports/rejudge-dir.ts';
import { RecordError } from '../reports/run-record.ts';
import path from 'node:path';

const USAGE = 2;

export function registerRejudgeCommand(program: Command): void {
  program
    .command('rejudge')
    .description(
      'judge a saved run (its reports folder) again with the current model; writes DIR/rejudged/: every report of the run made again, diff.json and diff.md',
    )
    .argument('<dir>', 'the reports folder of a run (holding record.jsonl.gz)')
    .action(async (dir) => {
      try {
        const o = await rejudgeDir(dir);
        for (const line of o.lines) process.stdout.write(`svc-conformance: ${line}\n`);
        process.stdout.write(`svc-conformance: written ${path.join(dir, REJUDGED_DIR)}/ (every report of the run, diff.json, diff.md)\n`);
        process.exitCode = o.exitCode;
      } catch (e) {
        if (!(e instanceof RecordError)) throw e;
        process.stderr.write(`svc-conformance: ${e.message}\n`);
        process.exitCode = USAGE;
      }
    });
}
