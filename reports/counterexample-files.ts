/**
 * The file names of a run's counterexamples, in one place: the reproducer script
 * (`counterexamples/<clause>-<n>.sh`), its node test (`.test.mjs`) and the failure page
 * (`failures/<clause>-<n>.html`) share a base name, so the report, the page and the scripts link to
 * each other. n counts from 1 within the clause. Pure.
 */
import type { Counterexample, RunResult } from '../runner/results.ts';

export const COUNTEREXAMPLE_DIR = 'counterexamples';
export const FAILURE_PAGE_DIR = 'failures';

/** `rest:4.5/list/unset` -> `rest_4.5_list_unset`: safe on every file system, never a path. */
export function sanitiseFileName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[.]+/, '_');
  return s === '' ? '_' : s;
}

export interface CounterexampleFiles {
  readonly clause: RunResult['clauses'][number];
  readonly cx: Counterexample;
  /** `rest_4.4.6-1`: the script is `<base>.sh`, the node test `<base>.test.mjs`, the page `<base>.html`. */
  readonly base: string;
  readonly script?: string;
  readonly nodeTest?: string;
  readonly page: string;
}

export function counterexampleFiles(run: RunResult): CounterexampleFiles[] {
  const out: CounterexampleFiles[] = [];
  const taken = new Set<string>();
  for (const c of run.clauses) {
    c.counterexamples.forEach((cx, i) => {
      // Distinct ids can sanitise alike (`a:b` and `a/b`); a suffix keeps both.
      let base = `${sanitiseFileName(c.id)}-${i + 1}`;
      for (let k = 2; taken.has(base); k++) base = `${sanitiseFileName(c.id)}-${i + 1}-${k}`;
      taken.add(base);
      out.push({
        clause: c,
        cx,
        base,
        script: cx.curl.trim() === '' ? undefined : `${base}.sh`,
        nodeTest: cx.nodeTest === undefined ? undefined : `${base}.test.mjs`,
        page: `${base}.html`,
      });
    });
  }
  return out;
}
