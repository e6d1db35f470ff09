/** The node-agent files of a run's failures, beside its reports, to feed a loader by hand. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunResult } from '../runner/results.ts';

/** Each shrunk node-agent file of the run as `nodeagent/<check>-<n>.yaml` beside the reports. */
export async function writeNodeagentCases(result: RunResult, reportsDir: string): Promise<string[]> {
  const seen = new Map<string, number>();
  const files: string[] = [];
  for (const c of result.clauses) {
    for (const cx of c.counterexamples) {
      if (!cx.check.startsWith('nodeagent-')) continue;
      const n = (seen.get(cx.check) ?? 0) + 1;
      seen.set(cx.check, n);
      const dir = path.join(reportsDir, 'nodeagent');
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${cx.check}-${n}.yaml`);
      await writeFile(file, `# ${cx.clause}: expected ${cx.expected}; observed ${cx.observed}\n${cx.steps.join('\n')}\n`);
      files.push(file);
    }
  }
  return files;
}
