// `recheck-history`: a saved watch history is judged again from its file alone; a file that is not
// one gets a clear error naming the file and the field.
import { describe, expect, it } from 'vitest';
import { recheckHistoryText } from '../../../scripts/recheck-history.ts';
import { watchEvidence } from '../../../reference/watch-evidence.ts';
import type { WatchExpectation } from '../../../reference/watch-oracle.ts';
import { ConfigError } from '../../../harness/transport/kubeconfig.ts';
import { a12, history, NS, observed } from '../reference/model-fixtures.ts';

const exp: WatchExpectation = {
  semantic: 'StartAtExact',
  clause: 'rest:4.5/watch/other',
  at: 2,
  requestIndex: 2,
  bookmarksRequested: false,
  kind: 'ConfigMap',
  apiVersion: 'v1',
};
const saved = (types: string[]) =>
  JSON.stringify(
    watchEvidence(
      { history: history(), knownKeys: new Set(['app']), namespace: NS },
      exp,
      types.map((type) => ({ type, object: observed(a12), raw: {} })),
    ),
  );

describe('recheck-history', () => {
  it('passes a history the model accepts and fails one it does not', () => {
    expect(recheckHistoryText(saved(['MODIFIED', 'DELETED']), 'h.json').failures).toEqual([]);
    expect(recheckHistoryText(saved(['DELETED']), 'h.json').failures.map((f) => f.clause)).toEqual(['rest:6.1.1']);
  });

  it.each([
    ['{', /h\.json: not JSON/],
    ['[]', /h\.json: not a saved watch history: \(top level\)/],
    [saved([]).replace('"snapshots":[', '"snapshots":[1,'), /history\.snapshots\[0\]: needs index and objects/],
    [JSON.stringify({ ...JSON.parse(saved([])), format: 'x' }), /format: expected/],
  ])('refuses %#', (text, message) => {
    expect(() => recheckHistoryText(text, 'h.json')).toThrow(ConfigError);
    expect(() => recheckHistoryText(text, 'h.json')).toThrow(message);
  });
});
