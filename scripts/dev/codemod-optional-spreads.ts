/**
 * `npx tsx scripts/dev/codemod-optional-spreads.ts [--dry-run]`: rewrites the conditional spreads that
 * only pass an optional field on, `...(x !== undefined ? { x } : {})`, to the field itself (`x`), where
 * that cannot change what the program does; prints what it rewrote and what it left, and why.
 *
 * The one difference the rewrite makes: where the value is undefined, the key is now present with an
 * undefined value instead of absent. JSON output and `o.k` reads do not see it (exactOptionalPropertyTypes
 * is off, so the types agree), but key enumeration does (`Object.keys`/`entries`, `in`, `hasOwn`), and so
 * does a spread of the object OVER something else (`{ ...defaults, ...o }` then sets k to undefined).
 * The safety rule, decided with the type checker over the whole program (tsconfig.json):
 *   - the condition tests exactly the value passed: `V !== undefined ? { k: V } : {}` (or
 *     `V === undefined ? {} : { k: V }`), or a truthy `V ? { k: V } : {}` where V's type has no falsy value
 *     but undefined (objects, non-empty literals); V is a name or a property path (no call to repeat);
 *   - in the object literal around it, no other member names k and nothing but other such single-key
 *     spreads comes before it (an earlier spread could hold a k the undefined would now overwrite);
 *   - the literal's expected type, if it has one, declares k optional or allowing undefined;
 *   - nowhere in the program is a value whose type declares that k enumerated, tested with `in`/`hasOwn`,
 *     or spread/assigned over another object (the property's declarations are matched, so a field of an
 *     interface is safe only if no object of that interface is ever enumerated or laid over another).
 * A value typed as a plain record or unknown and enumerated generically (a canonical serialiser) cannot
 * be traced; the ones in this tree drop undefined values (reference/objects.ts `canonical`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as TS from 'typescript';

const ts = createRequire(import.meta.url)('typescript') as typeof TS;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One conditional spread of a single optional field, and what becomes of it. */
export interface Site {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly replacement?: string;
  readonly left?: string;
  readonly start: number;
  readonly end: number;
}

const strip = (e: TS.Expression): TS.Expression => (ts.isParenthesizedExpression(e) ? strip(e.expression) : e);
const isUndefined = (e: TS.Expression): boolean => ts.isIdentifier(e) && e.text === 'undefined';
const isEmptyObject = (e: TS.Expression): boolean =>
  ts.isObjectLiteralExpression(strip(e)) && (strip(e) as TS.ObjectLiteralExpression).properties.length === 0;

/** A name or a property path (`a`, `o.k`, `o['k']`, `o.k!`): reading it twice reads the same value. */
function isPath(e: TS.Expression): boolean {
  const x = ts.isNonNullExpression(e) ? e.expression : e;
  if (ts.isIdentifier(x) || x.kind === ts.SyntaxKind.ThisKeyword) return true;
  if (ts.isPropertyAccessExpression(x)) return isPath(x.expression);
  if (ts.isElementAccessExpression(x)) return ts.isStringLiteral(x.argumentExpression) && isPath(x.expression);
  return false;
}

/** The tested value and whether the test is a truthy one, or undefined for a test this rule does not read. */
function testedValue(cond: TS.Expression, whenTrueIsField: boolean): { tested: TS.Expression; truthy: boolean } | undefined {
  const c = strip(cond);
  if (ts.isBinaryExpression(c)) {
    const op = c.operatorToken.kind;
    const wanted = whenTrueIsField ? ts.SyntaxKind.ExclamationEqualsEqualsToken : ts.SyntaxKind.EqualsEqualsEqualsToken;
    if (op !== wanted) return undefined;
    if (isUndefined(c.right)) return { tested: c.left, truthy: false };
    if (isUndefined(c.left)) return { tested: c.right, truthy: false };
    return undefined;
  }
  return whenTrueIsField ? { tested: c, truthy: true } : undefined;
}

/** Every constituent of `t` but undefined is one no truthy test can drop (an object, a non-empty literal, true). */
function neverFalsyButUndefined(t: TS.Type): boolean {
  const parts = t.isUnion() ? t.types : [t];
  return parts.every((p) => {
    const f = p.flags;
    if (f & ts.TypeFlags.Undefined) return true;
    if (f & (ts.TypeFlags.Object | ts.TypeFlags.NonPrimitive)) return true;
    if (p.isStringLiteral()) return p.value !== '';
    if (p.isNumberLiteral()) return p.value !== 0;
    return (f & ts.TypeFlags.BooleanLiteral) !== 0 && (p as TS.Type & { intrinsicName?: string }).intrinsicName === 'true';
  });
}

const keyName = (p: TS.ObjectLiteralElementLike): string | undefined =>
  p.name !== undefined && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;

type Field = TS.PropertyAssignment | TS.ShorthandPropertyAssignment;

/** The single-field spread `...(c ? { k: v } : {})` (or `c ? {} : { k: v }`): its field and test. */
function singleFieldSpread(s: TS.SpreadAssignment): { field: Field; cond: TS.Expression; fieldWhenTrue: boolean } | undefined {
  const e = strip(s.expression);
  if (!ts.isConditionalExpression(e)) return undefined;
  const fieldWhenTrue = isEmptyObject(e.whenFalse);
  const obj = strip(fieldWhenTrue ? e.whenTrue : e.whenFalse);
  if (!(fieldWhenTrue || isEmptyObject(e.whenTrue)) || !ts.isObjectLiteralExpression(obj) || obj.properties.length !== 1) return undefined;
  const field = obj.properties[0];
  if (field === undefined || !(ts.isPropertyAssignment(field) || ts.isShorthandPropertyAssignment(field)) || keyName(field) === undefined)
    return undefined;
  return { field, cond: e.condition, fieldWhenTrue };
}

/** The declarations of every property of `t` (each member of a union or intersection). */
function propertyDeclarations(checker: TS.TypeChecker, t: TS.Type, name?: string): TS.Declaration[] {
  const parts = t.isUnionOrIntersection() ? t.types : [t];
  return parts.flatMap((p) => {
    const props =
      name === undefined
        ? checker.getPropertiesOfType(p)
        : [checker.getPropertyOfType(p, name)].filter((x): x is TS.Symbol => x !== undefined);
    return props.flatMap((sym) => sym.declarations ?? []);
  });
}

const ENUMERATORS = new Set(['keys', 'entries', 'values', 'hasOwn', 'getOwnPropertyNames', 'assign', 'fromEntries']);

/** The property declarations whose presence the program can see: enumerated, tested with `in`, laid over another object. */
function keySensitiveDeclarations(program: TS.Program, checker: TS.TypeChecker): Set<TS.Declaration> {
  const out = new Set<TS.Declaration>();
  const mark = (e: TS.Expression, name?: string) => {
    for (const d of propertyDeclarations(checker, checker.getTypeAtLocation(e), name)) out.add(d);
  };
  // A spread lays its keys over the ones named before it: those of its keys are seen (an undefined one
  // would now overwrite). A single-field spread is the site itself, checked against earlier members.
  const namesOf = (p: TS.ObjectLiteralElementLike): string[] =>
    ts.isSpreadAssignment(p)
      ? checker.getPropertiesOfType(checker.getTypeAtLocation(p.expression)).map((x) => x.name)
      : [keyName(p)].filter((x): x is string => x !== undefined);
  const markOverlays = (o: TS.ObjectLiteralExpression) => {
    const before = new Set<string>();
    for (const p of o.properties) {
      if (ts.isSpreadAssignment(p) && singleFieldSpread(p) === undefined) for (const name of before) mark(p.expression, name);
      for (const name of namesOf(p)) before.add(name);
    }
  };
  const visit = (n: TS.Node): void => {
    if (ts.isObjectLiteralExpression(n)) markOverlays(n);
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      ts.isIdentifier(n.expression.expression) &&
      n.expression.expression.text === 'Object'
    ) {
      const fn = n.expression.name.text;
      if (ENUMERATORS.has(fn)) n.arguments.forEach((a, i) => (fn !== 'assign' || i > 0) && mark(a));
    }
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.InKeyword)
      mark(n.right, ts.isStringLiteral(n.left) ? n.left.text : undefined);
    if (ts.isForInStatement(n)) mark(n.expression);
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'hasOwnProperty')
      mark(n.expression.expression);
    ts.forEachChild(n, visit);
  };
  for (const sf of program.getSourceFiles()) if (!sf.isDeclarationFile) visit(sf);
  return out;
}

/** Why the site must stay as it is, or undefined when the rewrite is safe. */
function reasonToLeave(checker: TS.TypeChecker, sensitive: Set<TS.Declaration>, s: TS.SpreadAssignment): string | undefined {
  const found = singleFieldSpread(s);
  if (found === undefined) return 'not a single-field spread';
  const { field, cond, fieldWhenTrue } = found;
  const key = keyName(field)!;
  const value = ts.isShorthandPropertyAssignment(field) ? field.name : field.initializer;
  const test = testedValue(cond, fieldWhenTrue);
  if (test === undefined) return 'the condition is not a test of the value for undefined or truthiness';
  const sf = s.getSourceFile();
  const bare = (e: TS.Expression) => (ts.isNonNullExpression(e) ? e.expression : e).getText(sf);
  if (!isPath(value) || bare(test.tested) !== bare(value)) return 'the value is not the tested name or path';
  if (test.truthy && !neverFalsyButUndefined(checker.getTypeAtLocation(test.tested)))
    return 'a truthy test of a value that can be falsy (empty string, 0, false, null)';
  const outer = s.parent as TS.ObjectLiteralExpression;
  const at = outer.properties.indexOf(s);
  if (outer.properties.some((p, i) => i !== at && keyName(p) === key)) return `the literal names ${key} elsewhere too`;
  if (outer.properties.slice(0, at).some((p) => ts.isSpreadAssignment(p) && singleFieldSpread(p) === undefined))
    return 'an earlier spread in the literal could hold the key';
  const expected = checker.getContextualType(outer);
  const declared = expected === undefined ? [] : propertyDeclarations(checker, expected, key);
  if (expected !== undefined && declared.length > 0) {
    const prop = checker.getPropertyOfType(expected, key);
    const t = prop === undefined ? undefined : checker.getTypeOfSymbolAtLocation(prop, outer);
    const optional = prop !== undefined && (prop.flags & ts.SymbolFlags.Optional) !== 0;
    if (
      !optional &&
      !(t !== undefined && t.isUnion() && t.types.some((x) => x.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Any | ts.TypeFlags.Unknown)))
    )
      return `the expected type requires ${key}`;
  }
  if ([...declared, field].some((d) => sensitive.has(d)))
    return `${key} of this type is enumerated, tested with in, or spread over another object somewhere`;
  return undefined;
}

function replacementOf(s: TS.SpreadAssignment): string {
  const { field } = singleFieldSpread(s)!;
  const sf = s.getSourceFile();
  if (ts.isShorthandPropertyAssignment(field)) return field.name.text;
  const value = field.initializer.getText(sf);
  return ts.isIdentifier(field.name) && value === field.name.text ? value : `${field.name.getText(sf)}: ${value}`;
}

/** Every single-field conditional spread of the program's own sources (under `dir`), with its rewrite or why it stays. */
export function findSites(program: TS.Program, dir: string): Site[] {
  const checker = program.getTypeChecker();
  const sensitive = keySensitiveDeclarations(program, checker);
  const sites: Site[] = [];
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || sf.fileName.includes('/node_modules/') || !path.resolve(sf.fileName).startsWith(dir + path.sep)) continue;
    const visit = (n: TS.Node): void => {
      if (ts.isSpreadAssignment(n) && singleFieldSpread(n) !== undefined) {
        const left = reasonToLeave(checker, sensitive, n);
        const base = {
          file: path.relative(dir, sf.fileName),
          line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1,
          text: n.getText(sf),
          start: n.getStart(sf),
          end: n.getEnd(),
        };
        sites.push(left === undefined ? { ...base, replacement: replacementOf(n) } : { ...base, left });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return sites;
}

/** `text` with each site's replacement put in (from the end, so earlier offsets stay right). */
export function applySites(text: string, sites: readonly Site[]): string {
  let out = text;
  for (const s of [...sites].sort((a, b) => b.start - a.start))
    if (s.replacement !== undefined) out = out.slice(0, s.start) + s.replacement + out.slice(s.end);
  return out;
}

function programOf(dir: string): TS.Program {
  const configPath = path.join(dir, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dir);
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dryRun = process.argv.includes('--dry-run');
  const sites = findSites(programOf(root), root);
  const rewritten = sites.filter((s) => s.replacement !== undefined);
  const byFile = new Map<string, Site[]>();
  for (const s of rewritten) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
  if (!dryRun)
    for (const [file, list] of byFile) writeFileSync(path.join(root, file), applySites(readFileSync(path.join(root, file), 'utf8'), list));
  for (const s of sites.filter((x) => x.left !== undefined))
    process.stdout.write(`left  ${s.file}:${s.line}  ${s.left}\n        ${s.text.replace(/\s+/g, ' ')}\n`);
  process.stdout.write(
    `${dryRun ? 'would rewrite' : 'rewrote'} ${rewritten.length} of ${sites.length} single-field conditional spreads in ${byFile.size} files; left ${sites.length - rewritten.length}\n`,
  );
  if (!dryRun && byFile.size > 0) process.stdout.write(`now: npx prettier --write ${[...byFile.keys()].join(' ')}\n`);
}
