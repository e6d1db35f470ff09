// The oracle cases split over files (variations-N-of-M, faults-N-of-M) must together be all of them:
// a share file lost or a count changed in one file but not the others would drop cases silently.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shareOf } from '../../helpers/shares.ts';

const ORACLE_DIR = new URL('../../oracle/', import.meta.url);

describe('oracle shares', () => {
  it('the shares of a list are the whole list, each item once, in round robin', () => {
    const items = ['a', 'b', 'c', 'd', 'e'];
    expect(shareOf(items, 1, 2)).toEqual(['a', 'c', 'e']);
    expect(shareOf(items, 2, 2)).toEqual(['b', 'd']);
    for (const parts of [1, 2, 3, 4, 7]) {
      const all = Array.from({ length: parts }, (_, i) => shareOf(items, i + 1, parts)).flat();
      expect(all.sort()).toEqual(items);
    }
    expect(() => shareOf(items, 3, 2)).toThrow('share 3 of 2');
    expect(() => shareOf(items, 0, 2)).toThrow('not a share');
  });

  it.each(['variations', 'faults'])('every share of the %s files exists, each calling its own share of the same count', (stem) => {
    const files = readdirSync(ORACLE_DIR).filter((f) => f.startsWith(`${stem}-`) && f.endsWith('.test.ts'));
    const shares = files.map((f) => /^[a-z]+-(\d+)-of-(\d+)\.test\.ts$/.exec(f)).map((m) => [Number(m?.[1]), Number(m?.[2])] as const);
    expect(shares.length).toBeGreaterThan(1);
    const parts = shares[0]![1];
    expect(shares.map(([, of]) => of)).toEqual(shares.map(() => parts));
    expect(shares.map(([part]) => part).sort((a, b) => a - b)).toEqual(Array.from({ length: parts }, (_, i) => i + 1));
    for (const f of files) {
      const [, part, of] = /-(\d+)-of-(\d+)\./.exec(f)!;
      expect(readFileText(f)).toMatch(new RegExp(`\\(${part}, ${of}\\);`));
    }
  });
});

const readFileText = (f: string) => readFileSync(new URL(f, ORACLE_DIR), 'utf8');

describe('oracle start order', () => {
  it('names oracle files that exist, each once', async () => {
    const { COSTLIEST_FIRST } = await import('../../helpers/start-order.ts');
    const root = new URL('../../../', import.meta.url);
    expect(new Set(COSTLIEST_FIRST).size).toBe(COSTLIEST_FIRST.length);
    expect(COSTLIEST_FIRST.filter((f) => !existsSync(new URL(f, root)))).toEqual([]);
  });
});
