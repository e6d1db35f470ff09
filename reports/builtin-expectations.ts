/**
 * The expectations files shipped in the package's expectations/ folder, by name:
 * `--expectations upstream-kube-apiserver` is expectations/upstream-kube-apiserver.yaml of the
 * installed package, wherever the command runs (a clone, `npm i`, the image), not of the current folder.
 * A value that is an existing file is that file: a path always wins over a name, so a user's own
 * `upstream-kubelet` file in the current folder is read as before.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { didYouMean } from '../harness/case/index.ts';
import { parseExpectations } from './expectations.ts';

// One folder up from reports/ in the sources, and from dist/ in the bundle (each module keeps its own URL).
export const BUILTIN_EXPECTATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'expectations');

export interface BuiltinExpectations {
  readonly name: string;
  readonly path: string;
  /** The first sentence of the file's leading comment. */
  readonly description: string;
  readonly entries: number;
}

export function builtinExpectationNames(dir = BUILTIN_EXPECTATIONS_DIR): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.slice(0, -'.yaml'.length))
      .sort();
  } catch {
    return [];
  }
}

export function listBuiltinExpectations(dir = BUILTIN_EXPECTATIONS_DIR): BuiltinExpectations[] {
  return builtinExpectationNames(dir).map((name) => {
    const file = path.join(dir, `${name}.yaml`);
    const text = readFileSync(file, 'utf8');
    return { name, path: file, description: leadingSentence(text), entries: parseExpectations(text, file).knownFailures.length };
  });
}

export type Resolved = { readonly file: string } | { readonly error: string };

/**
 * `--expectations VALUE`: an existing file as given; else a built-in name (with or without `.yaml`);
 * else an error naming both readings and the nearest built-in names.
 */
export function resolveExpectations(value: string, cwd: string, dir = BUILTIN_EXPECTATIONS_DIR): Resolved {
  if (isFile(path.resolve(cwd, value))) return { file: value };
  const names = builtinExpectationNames(dir);
  const name = value.endsWith('.yaml') ? value.slice(0, -'.yaml'.length) : value;
  if (names.includes(name)) return { file: path.join(dir, `${name}.yaml`) };
  if (value.includes('/') || value.includes(path.sep)) return { file: value };
  return {
    error: `${value}: no such file, and no built-in expectations of that name${didYouMean(name, names)} (see \`svc-conformance list-expectations\`)`,
  };
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function leadingSentence(text: string): string {
  const comment: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('#')) break;
    comment.push(line.replace(/^#\s?/, '').trim());
  }
  const joined = comment.join(' ');
  const end = joined.search(/, for `|\.(\s|$)/);
  return (end < 0 ? joined : joined.slice(0, end)).trim();
}
