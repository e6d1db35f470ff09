// A reproducer puts learned values (continue tokens, versions, generated names) in queries through the
// shell function `enc`: it must encode them as the suite's own requests did (encodeURIComponent), or a
// replayed request names another value.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SHELL_ENC } from '../../../harness/reproducers/curl.ts';

const encInShell = (values: readonly string[]): string[] =>
  JSON.parse(
    execFileSync(
      'bash',
      [
        '-c',
        `${SHELL_ENC}\nfirst=1; printf '['; for v in "$@"; do [ -n "$first" ] || printf ','; first=; printf '"%s"' "$(enc "$v")"; done; printf ']'`,
        'enc',
        ...values,
      ],
      {
        encoding: 'utf8',
      },
    ),
  ) as string[];

describe('the reproducers encode a learned value as encodeURIComponent does', () => {
  it('tokens, names, reserved and multi-byte characters, and nothing', () => {
    const values = ['eyJyZXYiOjcsImFmdGVyIjoiY2=+/', 'a b&c=d?e#f', 'é ü 日本 🙂', "it's (x)*!~-_.", '', '%25', '"quoted"\\'];
    expect(encInShell(values)).toEqual(values.map(encodeURIComponent));
  });

  it('any string without NUL (bash arguments cannot hold one)', () => {
    // fast-check's 'binary' units are whole code points: never a lone surrogate, which has no UTF-8.
    const values = fc.sample(
      fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !s.includes('\0')),
      { seed: 7, numRuns: 200 },
    );
    expect(encInShell(values)).toEqual(values.map(encodeURIComponent));
  });
});
