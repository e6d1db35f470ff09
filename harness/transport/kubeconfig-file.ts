/**
 * One kubeconfig file read and checked (kubeconfig.ts merges them): YAML or JSON, each cluster, user and
 * context an entry that remembers where it came from, and a problem named with its file, line and path.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import type { Document, Node } from 'yaml';

import { ConfigError } from './config-error.ts';

export type Json = Record<string, unknown>;

/** One named entry of a kubeconfig list, with where it came from for error messages. */
export interface Entry {
  readonly name: string;
  readonly body: Json;
  readonly file: string;
  readonly path: string;
}

export interface ParsedFile {
  clusters: Entry[];
  users: Entry[];
  contexts: Entry[];
  currentContext?: string;
}

export function readConfigFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${what} ${file}: ${fsReason(err)}`);
  }
}

function fsReason(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return err instanceof Error ? err.message : String(err);
}

/** yaml, loaded on first need; a bundle's CommonJS interop may hand its exports over as `default`. */
async function yamlLibrary(): Promise<typeof import('yaml')> {
  const mod = (await import('yaml')) as typeof import('yaml') & { default?: typeof import('yaml') };
  return typeof mod.parseDocument === 'function' ? mod : mod.default!;
}

/** Thrown by the JSON fast path's validation: the file is read again as YAML, for the located error. */
const AS_YAML = Symbol('read as YAML');

/**
 * A kubeconfig that is JSON (JSON is YAML: the run writes its daemon's so) is read without the YAML
 * library, whose loading was a good part of each controller daemon start; anything else, and any
 * JSON file with a problem to report, is read as YAML, which locates the problem by line and column.
 */
export async function parseKubeconfigFile(file: string): Promise<ParsedFile> {
  const text = readConfigFile(file, 'kubeconfig');
  const json = strictJson(text);
  if (json !== undefined) {
    try {
      return kubeconfigOf(json.value, file, () => {
        throw AS_YAML;
      });
    } catch (e) {
      if (e !== AS_YAML) throw e;
    }
  }
  const { LineCounter, parseDocument } = await yamlLibrary();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): string => {
    const { line, col } = lines.linePos(offset);
    return `kubeconfig ${file}: line ${line}, column ${col}`;
  };
  const yamlError = doc.errors[0];
  if (yamlError) throw new ConfigError(`${at(yamlError.pos[0])}: ${yamlError.message.split('\n', 1)[0]}`);

  const fail = (path: (string | number)[], problem: string): never => {
    throw new ConfigError(`${at(nodeOffset(doc, path))}: ${formatPath(path)} ${problem}`);
  };
  const root: unknown = doc.toJS({ maxAliasCount: 100 });
  return kubeconfigOf(root, file, fail, () => {
    throw new ConfigError(`${at(0)}: a kubeconfig must be a mapping (apiVersion, clusters, users, contexts)`);
  });
}

function kubeconfigOf(
  root: unknown,
  file: string,
  fail: (path: (string | number)[], problem: string) => never,
  notMapping: () => never = () => fail([], ''),
): ParsedFile {
  if (root === null || root === undefined) return { clusters: [], users: [], contexts: [] };
  if (!isPlainObject(root)) return notMapping();

  const base = dirname(file);
  const entries = (kind: 'clusters' | 'users' | 'contexts', inner: 'cluster' | 'user' | 'context'): Entry[] => {
    const list = root[kind];
    if (list === undefined || list === null) return [];
    if (!Array.isArray(list)) return fail([kind], 'must be a list');
    return list.map((item: unknown, i): Entry => {
      if (!isPlainObject(item)) return fail([kind, i], 'must be a mapping with name and ' + inner);
      if (typeof item.name !== 'string' || item.name === '') return fail([kind, i, 'name'], 'is missing');
      const body = item[inner] ?? (inner === 'user' ? {} : undefined);
      if (!isPlainObject(body)) return fail([kind, i, inner], body === undefined ? 'is missing' : 'must be a mapping');
      const entry = { name: item.name, body: { ...body }, file, path: `${kind}[${i}].${inner}` };
      validateEntry(inner, entry, (p, problem) => fail([kind, i, inner, ...p], problem), base);
      return entry;
    });
  };
  const current = root['current-context'];
  return {
    clusters: entries('clusters', 'cluster'),
    users: entries('users', 'user'),
    contexts: entries('contexts', 'context'),
    currentContext: typeof current === 'string' && current !== '' ? current : undefined,
  };
}

export const FILE_FIELDS: Record<'cluster' | 'user' | 'context', readonly string[]> = {
  cluster: ['certificate-authority'],
  user: ['client-certificate', 'client-key', 'token-file'],
  context: [],
};

function validateEntry(kind: 'cluster' | 'user' | 'context', e: Entry, fail: (p: string[], problem: string) => never, base: string): void {
  const b = e.body;
  if (kind === 'cluster' && (typeof b.server !== 'string' || b.server === '')) fail(['server'], 'is missing');
  if (kind === 'context' && (typeof b.cluster !== 'string' || b.cluster === '')) fail(['cluster'], 'is missing');
  for (const field of [...FILE_FIELDS[kind], 'certificate-authority-data', 'client-certificate-data', 'client-key-data', 'token']) {
    if (b[field] !== undefined && b[field] !== null && typeof b[field] !== 'string') fail([field], 'must be a string');
  }
  // Relative paths are relative to the kubeconfig file that names them (kubectl's rule).
  for (const field of FILE_FIELDS[kind]) {
    const v = b[field];
    if (typeof v === 'string' && v !== '' && !isAbsolute(v)) b[field] = join(base, v);
  }
  const exec = b.exec;
  if (
    kind === 'user' &&
    isPlainObject(exec) &&
    typeof exec.command === 'string' &&
    exec.command.includes('/') &&
    !isAbsolute(exec.command)
  ) {
    b.exec = { ...exec, command: join(base, exec.command) };
  }
}

/**
 * The value of a JSON text whose objects repeat no key (YAML's `uniqueKeys`, which JSON.parse does not
 * enforce); undefined for anything else. Every member of a JSON object has exactly one colon outside
 * strings, so a repeated key shows as more colons than the parsed objects have keys.
 */
function strictJson(text: string): { value: unknown } | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  let colons = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a) colons++;
    else if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    }
  }
  const keys = (v: unknown): number =>
    Array.isArray(v)
      ? v.reduce((n: number, x) => n + keys(x), 0)
      : v !== null && typeof v === 'object'
        ? Object.values(v).reduce((n: number, x) => n + keys(x), Object.keys(v).length)
        : 0;
  return colons === keys(value) ? { value } : undefined;
}

export function isPlainObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Offset of the deepest node on `path` that exists, so a missing field points at its parent. */
function nodeOffset(doc: Document, path: (string | number)[]): number {
  for (let n = path.length; n > 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as Node | undefined;
    if (node?.range) return node.range[0];
  }
  return doc.contents?.range?.[0] ?? 0;
}

function formatPath(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
