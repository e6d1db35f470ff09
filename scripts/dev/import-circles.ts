/**
 * The repository's import graph and its circles, type-only imports included: a circle of `import type`
 * costs nothing at run time but still ties the modules together (neither can be moved, split or read
 * without the other). Parsed with the TypeScript compiler, so comments and strings never count.
 *
 *   npx tsx scripts/dev/import-circles.ts          # every circle, one a line; exits 1 when there is one
 *   npx tsx scripts/dev/import-circles.ts --json
 *
 * A circle is reported as one strongly connected component of the file graph (the files that all reach
 * each other), with one shortest loop through it as the example to break.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as TS from 'typescript';

// Required, not imported: an ESM import of the compiler's CommonJS file first scans it for its exports.
const ts = createRequire(import.meta.url)('typescript') as typeof TS;

/** Every module specifier `text` names: static, re-export, dynamic and type-level (`import('x').T`). */
export function specifiersOf(file: string, text: string): string[] {
  const sf = ts.createSourceFile(
    file,
    text,
    { languageVersion: ts.ScriptTarget.ES2022, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
    false,
    ts.ScriptKind.TS,
  );
  const out: string[] = [];
  const visit = (n: TS.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier))
      out.push(n.moduleSpecifier.text);
    else if (
      ts.isCallExpression(n) &&
      n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      n.arguments[0] &&
      ts.isStringLiteral(n.arguments[0])
    )
      out.push(n.arguments[0].text);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal))
      out.push(n.argument.literal.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** The repository file a relative specifier of `from` names, or undefined (a package, or no such file). */
export function resolveSpecifier(from: string, specifier: string, exists: (file: string) => boolean): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (exists(target)) return target;
  const asTs = target.replace(/\.(m?)js$/, '.$1ts');
  return asTs !== target && exists(asTs) ? asTs : undefined;
}

export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** The graph over `files` (paths relative to the root), edges to files of the set only. */
export function importGraph(files: readonly string[], read: (file: string) => string): ImportGraph {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const to = specifiersOf(f, read(f)).map((s) => resolveSpecifier(f, s, (t) => known.has(t)));
    graph.set(f, [...new Set(to.filter((t): t is string => t !== undefined))].sort());
  }
  return graph;
}

/** The strongly connected components with a loop (two files or more, or a file importing itself), each sorted. */
export function circles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const enter = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
  };
  // Tarjan's algorithm, iterative: a deep chain of imports must not overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    enter(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const edges = graph.get(top.node) ?? [];
      if (top.next < edges.length) {
        const to = edges[top.next++]!;
        if (!index.has(to)) {
          enter(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.node);
      if (component.length > 1 || (graph.get(top.node) ?? []).includes(top.node)) out.push(component.sort());
    }
  }
  return out.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}

/** One shortest loop through the first file of `component` (breadth-first within the component). */
export function shortestLoop(graph: ImportGraph, component: readonly string[]): string[] {
  const inside = new Set(component);
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const to of graph.get(at) ?? []) {
      if (!inside.has(to)) continue;
      if (to === start) {
        const loop = [at];
        while (loop[0] !== start) loop.unshift(cameFrom.get(loop[0]!)!);
        return [...loop, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, at);
        queue.push(to);
      }
    }
  }
  return [start];
}

/** The tracked (and new, not ignored) TypeScript sources of the repository at `root`. */
export function repositorySources(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], { cwd: root, encoding: 'utf8' });
  return out.split('\n').filter((f) => f !== '' && !f.startsWith('node_modules/') && existsSync(path.join(root, f)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const graph = importGraph(repositorySources(root), (f) => readFileSync(path.join(root, f), 'utf8'));
  const found = circles(graph);
  if (process.argv.includes('--json'))
    console.log(
      JSON.stringify(
        found.map((c) => ({ files: c, loop: shortestLoop(graph, c) })),
        null,
        2,
      ),
    );
  else {
    for (const c of found)
      console.log(`${c.length} files: ${shortestLoop(graph, c).join(' -> ')}${c.length > 2 ? `\n  all: ${c.join(' ')}` : ''}`);
    console.log(`${found.length} circle(s) over ${graph.size} files`);
  }
  process.exitCode = found.length > 0 ? 1 : 0;
}
