/**
 * Sizes of hand-written sources (STYLE.md: small modules, short functions): a file's lines and each
 * function's, parsed with the TypeScript compiler so a function is what the language says it is
 * (declarations, methods, arrows, function expressions, accessors, constructors).
 *
 *   sizeOffences('harness/x.ts', text) -> ['harness/x.ts: 412 lines', 'harness/x.ts:10 run: 95 lines']
 */
import { createRequire } from 'node:module';
import type * as TS from 'typescript';

// Required, not imported: see import-rules.ts.
const ts = createRequire(import.meta.url)('typescript') as typeof TS;

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;

/** Every size rule `text` (the source of `file`) breaks, one line each. */
export function sizeOffences(file: string, text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_FILE_LINES) out.push(`${file}: ${lines} lines`);
  const sf = ts.createSourceFile(file, text, { languageVersion: ts.ScriptTarget.ES2022, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, true, ts.ScriptKind.TS);
  const visit = (n: TS.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body !== undefined) {
      const first = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      if (last - first + 1 > MAX_FUNCTION_LINES) {
        const name = n.name !== undefined && (ts.isIdentifier(n.name) || ts.isStringLiteral(n.name)) ? n.name.text : '(anonymous)';
        out.push(`${file}:${first + 1} ${name}: ${last - first + 1} lines`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}
