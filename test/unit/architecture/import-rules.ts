/**
 * The architecture rules of docs/architecture.md "Layers", as data and one pure checker over a file's source text
 * (parsed with the TypeScript compiler, so comments and strings never count as imports):
 *
 * - imports flow one way: reference <- generators <- harness <- suites, targets <- runner <- reports, scripts
 *   (a layer imports only the layers listed for it; tests and root files are exempt);
 * - no file under harness/, suites/ or generators/ imports from targets/ (implied by the DAG, reported
 *   apart because a target inside the harness would make the oracle judge itself);
 * - the shipped command line never imports a development script (scripts/dev/: benches, mutation
 *   tables, doc generators, the self-tests' in-process runs), so none of them ships in dist/;
 * - verdicts live in reference/: harness/ and suites/ never import a judgement constructor, and never
 *   write a Judgement literal (`{ verdict: 'pass', expected: ... }`) by hand;
 * - harness/ is rooms (harness/<room>/): code outside a room imports its index.ts only, the room's door;
 *   code inside imports its siblings directly.
 *
 *   violations('harness/x.ts', "import { pass } from '../reference/judgement.ts';")
 *     -> [{ file: 'harness/x.ts', rule: 'verdict-outside-reference', detail: 'imports pass from reference/judgement.ts' }]
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TS from 'typescript';

// TypeScript 5.9's parser (the `typescript` package; the type check runs 7, `typescript-7`, which has no
// stable JS API). Required, not imported: an ESM import of the compiler's 9 MB CommonJS file first scans it for module
// syntax and for its named exports, which cost more CPU than the parsing the rules need.
const ts = createRequire(import.meta.url)('typescript') as typeof TS;

export type Layer = 'reference' | 'generators' | 'harness' | 'suites' | 'targets' | 'runner' | 'reports' | 'scripts';

/** What each layer may import besides itself: the layer DAG, as data. */
export const MAY_IMPORT: Readonly<Record<Layer, readonly Layer[]>> = {
  reference: [],
  generators: ['reference'],
  harness: ['reference', 'generators'],
  suites: ['reference', 'generators', 'harness'],
  targets: ['reference', 'generators', 'harness'],
  // The runner floor: plans a run, starts the targets, runs the checks; never formats a report.
  runner: ['reference', 'generators', 'harness', 'suites', 'targets'],
  reports: ['reference', 'generators', 'harness', 'suites', 'targets', 'runner'],
  scripts: ['reference', 'generators', 'harness', 'suites', 'targets', 'runner', 'reports'],
};

const LAYERS = Object.keys(MAY_IMPORT) as Layer[];

/** The judgement constructors of reference/judgement.ts: the model's, never the harness's. */
export const JUDGEMENT_CONSTRUCTORS: ReadonlySet<string> = new Set([
  'pass',
  'fail',
  'rule',
  'unspecified',
  'inconclusive',
  'alsoAgainst',
  'notSeenWithin',
]);
const JUDGED_VERDICTS = new Set(['pass', 'fail', 'unspecified', 'inconclusive']);

export type RuleName = 'imports-targets' | 'layer-order' | 'verdict-outside-reference' | 'shipped-imports-dev' | 'room-door';

export interface Violation {
  readonly file: string;
  readonly rule: RuleName;
  readonly detail: string;
}

/** `harness/x.ts` -> 'harness'; test/, root files and anything else -> undefined (exempt). */
export function layerOf(file: string): Layer | undefined {
  const top = file.split('/')[0] as Layer;
  return file.includes('/') && LAYERS.includes(top) ? top : undefined;
}

interface ImportRef {
  readonly specifier: string;
  /** Value bindings named (`import { a as b }` -> 'a'); empty for type-only imports. */
  readonly values: readonly string[];
}

function importsOf(sf: TS.SourceFile): ImportRef[] {
  const out: ImportRef[] = [];
  const visit = (n: TS.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const clause = n.importClause;
      const values: string[] = [];
      if (clause && !clause.isTypeOnly) {
        if (clause.name) values.push('default');
        const nb = clause.namedBindings;
        if (nb && ts.isNamedImports(nb)) for (const e of nb.elements) if (!e.isTypeOnly) values.push((e.propertyName ?? e.name).text);
        if (nb && ts.isNamespaceImport(nb)) values.push('*');
      }
      out.push({ specifier: n.moduleSpecifier.text, values });
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      const values = n.isTypeOnly
        ? []
        : n.exportClause && ts.isNamedExports(n.exportClause)
          ? n.exportClause.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text)
          : ['*'];
      out.push({ specifier: n.moduleSpecifier.text, values });
    } else if (
      ts.isCallExpression(n) &&
      n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      n.arguments[0] &&
      ts.isStringLiteral(n.arguments[0])
    ) {
      out.push({ specifier: n.arguments[0].text, values: ['*'] });
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      out.push({ specifier: n.argument.literal.text, values: [] });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** Object literals shaped like a Judgement: a literal verdict of the model's and an `expected`. */
function handMadeJudgements(sf: TS.SourceFile): string[] {
  const out: string[] = [];
  const visit = (n: TS.Node): void => {
    if (ts.isObjectLiteralExpression(n)) {
      const props = new Map<string, TS.Expression | undefined>();
      for (const p of n.properties) {
        if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) props.set(p.name.text, p.initializer);
        if (ts.isShorthandPropertyAssignment(p)) props.set(p.name.text, undefined);
      }
      const v = props.get('verdict');
      if (v && ts.isStringLiteralLike(v) && JUDGED_VERDICTS.has(v.text) && props.has('expected')) {
        const { line } = sf.getLineAndCharacterOfPosition(n.getStart(sf));
        out.push(`line ${line + 1}: a Judgement literal with verdict '${v.text}'`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** `harness/case/check.ts` -> 'case'; a file not in a room of harness/ -> undefined. */
export function roomOf(file: string): string | undefined {
  const parts = file.split('/');
  return parts[0] === 'harness' && parts.length >= 3 ? parts[1] : undefined;
}

/** Why `file` importing `target` goes round the door of `target`'s room, or undefined when it does not. */
function roomDoorBroken(file: string, target: string): string | undefined {
  const room = roomOf(target);
  if (room === undefined || roomOf(file) === room || target === `harness/${room}/index.ts`) return undefined;
  return `imports ${target} (outside harness/${room}/, import harness/${room}/index.ts)`;
}

/** Every rule `text` (the source of `file`, a path relative to the package root) breaks. */
export function violations(file: string, text: string): Violation[] {
  const from = layerOf(file);
  if (from === undefined) return [];
  // Neither JSDoc nor parent pointers: the rules read import declarations and object literals only, and
  // skipping both takes a tenth off parsing the ~2.4 MB of sources (most of this test's CPU).
  const sf = ts.createSourceFile(
    file,
    text,
    { languageVersion: ts.ScriptTarget.ES2022, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    false,
    ts.ScriptKind.TS,
  );
  const out: Violation[] = [];
  for (const imp of importsOf(sf)) {
    if (!imp.specifier.startsWith('.')) continue;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), imp.specifier));
    const to = layerOf(target) ?? (target.startsWith('test/') ? 'test' : undefined);
    if (target.startsWith('scripts/dev/') && !file.startsWith('scripts/dev/')) {
      out.push({ file, rule: 'shipped-imports-dev', detail: `imports ${target}` });
    }
    const door = roomDoorBroken(file, target);
    if (door !== undefined) out.push({ file, rule: 'room-door', detail: door });
    if (to === undefined || to === from) continue;
    if (to === 'targets' && (from === 'harness' || from === 'suites' || from === 'generators')) {
      out.push({ file, rule: 'imports-targets', detail: `imports ${target}` });
    } else if (to === 'test' || !MAY_IMPORT[from].includes(to)) {
      out.push({
        file,
        rule: 'layer-order',
        detail: `${from}/ imports ${target} (${from} may import ${MAY_IMPORT[from].join(', ') || 'nothing'})`,
      });
    }
    if ((from === 'harness' || from === 'suites') && target === 'reference/judgement.ts') {
      const ctors = imp.values.filter((v) => JUDGEMENT_CONSTRUCTORS.has(v) || v === '*');
      if (ctors.length > 0)
        out.push({ file, rule: 'verdict-outside-reference', detail: `imports ${ctors.join(', ')} from reference/judgement.ts` });
    }
  }
  if (from === 'harness' || from === 'suites') {
    for (const d of handMadeJudgements(sf)) out.push({ file, rule: 'verdict-outside-reference', detail: d });
  }
  return out;
}
