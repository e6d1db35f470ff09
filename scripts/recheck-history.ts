/**
 * `svc-conformance recheck-history <file>`: judges a saved watch history (results/histories/*.json)
 * again with the current model, without a target. Exit 0 when it now passes, 1 when it still fails,
 * 2 when the file is not a saved history (one line naming the file and the field).
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../harness/transport/index.ts';
import { isRecord } from '../reference/objects.ts';
import { recheckWatchEvidence, WATCH_EVIDENCE_FORMAT, type WatchEvidence } from '../reference/watch-evidence.ts';
import type { Judgement } from '../reference/judgement.ts';
import { CONCURRENT_HISTORY_FORMAT, type ConcurrentHistory } from '../reference/concurrency/history-types.ts';
import { judgeConcurrentHistory } from '../reference/concurrency/judge.ts';

/** The first field that makes `v` unusable as saved evidence, as a path (`history.snapshots`). */
function shapeProblem(v: unknown): string | undefined {
  if (!isRecord(v)) return '(top level): not a JSON object';
  if (v['format'] !== WATCH_EVIDENCE_FORMAT)
    return `format: expected ${JSON.stringify(WATCH_EVIDENCE_FORMAT)}, got ${JSON.stringify(v['format'])}`;
  if (typeof v['namespace'] !== 'string') return 'namespace: not a string';
  if (!Array.isArray(v['knownKeys'])) return 'knownKeys: not a list';
  if (!isRecord(v['expectation']) || typeof v['expectation']['semantic'] !== 'string') return 'expectation: not a watch expectation';
  const h = v['history'];
  if (!isRecord(h)) return 'history: not an object';
  for (const k of ['snapshots', 'rvIndex', 'tainted', 'everKeys']) if (!Array.isArray(h[k])) return `history.${k}: not a list`;
  if ((h['snapshots'] as unknown[]).length === 0) return 'history.snapshots: empty';
  const bad = (h['snapshots'] as unknown[]).findIndex(
    (s) => !isRecord(s) || !Array.isArray(s['objects']) || typeof s['index'] !== 'number',
  );
  if (bad >= 0) return `history.snapshots[${bad}]: needs index and objects`;
  if (!Array.isArray(v['events'])) return 'events: not a list';
  return undefined;
}

function concurrentShapeProblem(v: Record<string, unknown>): string | undefined {
  for (const k of ['ops', 'watches', 'lists']) if (!Array.isArray(v[k])) return `${k}: not a list`;
  const badOp = (v['ops'] as unknown[]).findIndex(
    (o) => !isRecord(o) || typeof o['key'] !== 'string' || !isRecord(o['input']) || !isRecord(o['output']) || typeof o['call'] !== 'number',
  );
  if (badOp >= 0) return `ops[${badOp}]: needs key, input, output and call`;
  const badWatch = (v['watches'] as unknown[]).findIndex(
    (w) => !isRecord(w) || !Array.isArray(w['events']) || !Array.isArray(w['namespaces']),
  );
  if (badWatch >= 0) return `watches[${badWatch}]: needs events and namespaces`;
  return undefined;
}

export function recheckHistoryText(text: string, file: string): { failures: Judgement[]; judged: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${file}: not JSON: ${(e as Error).message}`);
  }
  if (isRecord(parsed) && parsed['format'] === CONCURRENT_HISTORY_FORMAT) {
    const problem = concurrentShapeProblem(parsed);
    if (problem !== undefined) throw new ConfigError(`${file}: not a saved concurrent history: ${problem}`);
    const js = judgeConcurrentHistory(parsed as unknown as ConcurrentHistory).judgements;
    return { failures: js.filter((j) => j.verdict === 'fail'), judged: js.length };
  }
  const problem = shapeProblem(parsed);
  if (problem !== undefined) throw new ConfigError(`${file}: not a saved watch history: ${problem}`);
  const js = recheckWatchEvidence(parsed as WatchEvidence);
  return { failures: js.filter((j) => j.verdict === 'fail'), judged: js.length };
}

export function recheckHistoryCommand(file: string, write: (line: string) => void): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const { failures, judged } = recheckHistoryText(text, file);
  if (failures.length === 0) {
    write(`${file}: passes the current model (${judged} judgements)`);
    return 0;
  }
  for (const f of failures) write(`${file}: ${f.clause}: expected ${f.expected}; observed ${f.observed}`);
  return 1;
}
