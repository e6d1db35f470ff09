// The watch stream parser must not assume one event per chunk or per read (issue: watch).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonDocumentStream } from '../../../harness/transport/json-stream.ts';

describe('JsonDocumentStream', () => {
  it('yields the same documents however the text is cut', () => {
    const docArb = fc.record({
      type: fc.constantFrom('ADDED', 'MODIFIED', 'BOOKMARK'),
      object: fc.record({
        metadata: fc.record({ name: fc.string(), resourceVersion: fc.string() }),
        data: fc.dictionary(fc.string(), fc.string()),
      }),
    });
    fc.assert(
      fc.property(
        fc.array(docArb, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.constantFrom('\n', '', ' \r\n'),
        (docs, cuts, sep) => {
          const text = docs.map((d) => JSON.stringify(d)).join(sep) + sep;
          const bytes = new TextEncoder().encode(text);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const s = new JsonDocumentStream();
          const out: unknown[] = [];
          let last = 0;
          for (const p of [...points, bytes.length]) {
            out.push(...s.push(bytes.slice(last, p)));
            last = p;
          }
          expect(s.error).toBeUndefined();
          expect(out).toEqual(docs);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reports a body that is not JSON', () => {
    const s = new JsonDocumentStream();
    s.push('{"type":"ADDED"}\n<html>');
    expect(s.error).toBeDefined();
  });
});
