/**
 * Where the target is and how to authenticate (docs/architecture.md "Targets and protocols"). Sources, first
 * match wins: `--server` (+ `--token`), `--kubeconfig`, `KUBECONFIG`, `~/.kube/config`, in-cluster
 * service-account files.
 *
 * We parse and validate kubeconfig files ourselves with `yaml` (errors carry line and column; the
 * library's own loader gives neither) and merge them with kubectl's rules; @kubernetes/client-node's
 * KubeConfig is then used only to turn the selected cluster and user into TLS material and headers,
 * which is where exec and auth-provider plugins live. It is imported lazily: it is heavy.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import type { RequestOptions } from 'node:https';
import { ConfigError } from './config-error.ts';
import { FILE_FIELDS, isPlainObject, parseKubeconfigFile, readConfigFile, type Entry, type Json } from './kubeconfig-file.ts';

// Its users (selection, the CLI, the self-tests) take these from here, as before the file was split.
export { ConfigError } from './config-error.ts';
export { parseKubeconfigFile } from './kubeconfig-file.ts';

export interface TargetTls {
  ca?: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
  insecureSkipTlsVerify: boolean;
  servername?: string;
}

export interface TargetConfig {
  /** Base URL without trailing slash; never contains credentials. */
  server: string;
  tls: TargetTls;
  /** Sent with every request (Authorization, Impersonate-User). Secret: never log. */
  headers: Record<string, string>;
  contextName?: string;
  /** Where the configuration came from, for the report (`--kubeconfig /x (context kind)`); no secrets. */
  source: string;
}

export interface LoadTargetOptions {
  kubeconfig?: string;
  context?: string;
  insecureSkipTlsVerify?: boolean;
  server?: string;
  token?: string;
  /** `--certificate-authority FILE` with `--server`: the PEM bundle that verifies its certificate. */
  certificateAuthority?: string;
  /**
   * Check the configuration without running anything it names: a kubeconfig's exec or auth-provider
   * plugin is not started, so its credentials are not in the result (`run --dry-run`).
   */
  checkOnly?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Directory of the service-account files; tests point it elsewhere. */
  serviceAccountDir?: string;
}

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

interface Merged {
  clusters: Map<string, Entry>;
  users: Map<string, Entry>;
  contexts: Map<string, Entry>;
  currentContext?: string;
}

export async function loadTargetConfig(opts: LoadTargetOptions): Promise<TargetConfig> {
  const env = opts.env ?? process.env;
  if (opts.server !== undefined)
    return fromExplicitServer(opts.server, opts.token, opts.insecureSkipTlsVerify === true, opts.certificateAuthority);

  const files = kubeconfigFiles(opts, env);
  if (files) {
    const merged = await mergeKubeconfigs(files.paths);
    return fromKubeconfig(merged, files.source, opts);
  }
  const saDir = opts.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  if (env.KUBERNETES_SERVICE_HOST && exists(join(saDir, 'token')))
    return fromServiceAccount(saDir, env, opts.insecureSkipTlsVerify === true);
  throw new ConfigError('no target configured: pass --server or --kubeconfig, set KUBECONFIG, or run inside a cluster');
}

function fromExplicitServer(server: string, token: string | undefined, insecure: boolean, caFile: string | undefined): TargetConfig {
  const url = parseServerUrl(server, '--server');
  const headers: Record<string, string> = {};
  if (token !== undefined && token !== '') headers.Authorization = `Bearer ${token.trim()}`;
  const tls: TargetTls = { insecureSkipTlsVerify: insecure };
  if (caFile !== undefined) tls.ca = readCertificateAuthority(caFile);
  return { server: url, tls, headers, source: '--server' };
}

/** A PEM bundle of CA certificates, refused in one line when it is not one. */
export function readCertificateAuthority(file: string): string {
  const text = readConfigFile(file, '--certificate-authority');
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new ConfigError(`--certificate-authority ${file}: not a PEM certificate (no -----BEGIN CERTIFICATE----- line)`);
  return text;
}

function parseServerUrl(raw: string, where: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${where}: "${raw}" is not a URL (expected https://host:port)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(`${where}: unsupported scheme ${url.protocol} (expected https or http)`);
  if (url.username || url.password)
    throw new ConfigError(`${where}: credentials in the server URL are not supported; use a token or client certificate`);
  if (url.search || url.hash) throw new ConfigError(`${where}: the server URL must not carry a query or fragment`);
  return url.toString().replace(/\/+$/, '');
}

function kubeconfigFiles(opts: LoadTargetOptions, env: NodeJS.ProcessEnv): { paths: string[]; source: string } | undefined {
  if (opts.kubeconfig !== undefined) {
    const p = resolve(opts.kubeconfig);
    return { paths: [p], source: `kubeconfig ${p}` };
  }
  const list = env.KUBECONFIG;
  if (list) {
    const all = list.split(delimiter).filter((f) => f !== '');
    // kubectl skips entries of KUBECONFIG that do not exist; all of them missing is an error here
    // because silently falling through to another cluster would be worse.
    const present = all.filter((f) => exists(f)).map((f) => resolve(f));
    if (present.length === 0) throw new ConfigError(`KUBECONFIG=${list}: no such file${all.length > 1 ? 's' : ''}`);
    return { paths: present, source: present.length === 1 ? `kubeconfig ${present[0]}` : `KUBECONFIG ${present.join(delimiter)}` };
  }
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  const def = join(home, '.kube', 'config');
  return exists(def) ? { paths: [def], source: `kubeconfig ${def}` } : undefined;
}

function exists(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** kubectl's merge: the first file to define a name wins, and so does the first current-context. */
async function mergeKubeconfigs(paths: readonly string[]): Promise<Merged> {
  const merged: Merged = { clusters: new Map(), users: new Map(), contexts: new Map() };
  for (const file of paths) {
    const parsed = await parseKubeconfigFile(file);
    for (const kind of ['clusters', 'users', 'contexts'] as const) {
      for (const e of parsed[kind]) if (!merged[kind].has(e.name)) merged[kind].set(e.name, e);
    }
    if (merged.currentContext === undefined && parsed.currentContext) merged.currentContext = parsed.currentContext;
  }
  return merged;
}

async function fromKubeconfig(merged: Merged, source: string, opts: LoadTargetOptions): Promise<TargetConfig> {
  const available = [...merged.contexts.keys()];
  const availableText = available.length > 0 ? `available: ${available.join(', ')}` : 'it defines no contexts';
  const contextName = opts.context ?? merged.currentContext;
  if (contextName === undefined) throw new ConfigError(`${source}: no current-context set; pass --context (${availableText})`);
  const ctx = merged.contexts.get(contextName);
  if (!ctx) throw new ConfigError(`${source}: context "${contextName}" not found (${availableText})`);
  const clusterName = ctx.body.cluster as string;
  const cluster = merged.clusters.get(clusterName);
  if (!cluster) throw new ConfigError(`${source}: context "${contextName}" refers to cluster "${clusterName}", which is not defined`);
  const userName = typeof ctx.body.user === 'string' && ctx.body.user !== '' ? ctx.body.user : undefined;
  // A context without a user is anonymous access (kubectl allows it); a user that is named but not
  // defined is a typo worth stopping for.
  const user = userName === undefined ? undefined : merged.users.get(userName);
  if (userName !== undefined && !user)
    throw new ConfigError(`${source}: context "${contextName}" refers to user "${userName}", which is not defined`);

  const server = parseServerUrl(cluster.body.server as string, `${cluster.file}: ${cluster.path}.server`);
  for (const e of [cluster, user]) {
    if (!e) continue;
    for (const field of FILE_FIELDS[e === cluster ? 'cluster' : 'user']) {
      const p = e.body[field];
      if (typeof p === 'string' && p !== '') readConfigFile(p, `${e.file}: ${e.path}.${field}`);
    }
  }
  checkAuthProvider(user, source);

  const insecure = opts.insecureSkipTlsVerify === true || cluster.body['insecure-skip-tls-verify'] === true;
  const httpsOptions =
    plainOptions(cluster, user) ?? (opts.checkOnly ? {} : await applyWithClientNode(cluster, user, contextName, server, insecure, source));
  const tls: TargetTls = { insecureSkipTlsVerify: insecure };
  if (httpsOptions.ca && !insecure) tls.ca = httpsOptions.ca as string | Buffer;
  if (httpsOptions.cert) tls.cert = httpsOptions.cert as string | Buffer;
  if (httpsOptions.key) tls.key = httpsOptions.key as string | Buffer;
  if (httpsOptions.servername) tls.servername = httpsOptions.servername;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(httpsOptions.headers ?? {})) if (typeof v === 'string') headers[k] = v;
  if (typeof httpsOptions.auth === 'string') {
    headers.Authorization = `Basic ${Buffer.from(httpsOptions.auth).toString('base64')}`;
  }
  if (headers.Authorization !== undefined) headers.Authorization = headers.Authorization.trim();
  if (Boolean(tls.cert) !== Boolean(tls.key)) {
    throw new ConfigError(`${source}: user "${userName ?? ''}" has a client certificate without a key, or a key without a certificate`);
  }
  return { server, tls, headers, contextName, source: `${source} (context ${contextName})` };
}

const SUPPORTED_AUTH_PROVIDERS = new Set(['oidc', 'azure', 'gcp']);

function checkAuthProvider(user: Entry | undefined, source: string): void {
  const ap = user?.body['auth-provider'];
  if (!isPlainObject(ap)) return;
  const name = typeof ap.name === 'string' ? ap.name : '';
  if (!SUPPORTED_AUTH_PROVIDERS.has(name)) {
    throw new ConfigError(
      `${source}: user "${user?.name ?? ''}" uses auth-provider "${name}", which is not supported; use a token, client certificate or exec plugin`,
    );
  }
}

/**
 * What client-node's applyToHTTPSOptions gives for a cluster of a server alone and a user of a bearer
 * token alone (or none): that header and nothing else. Such a file (the one the suite writes for a
 * controller daemon) need not pay for importing client-node, about 0.9 CPU-s per process; every other
 * shape (CA, certificates, token files, exec and auth-provider plugins) still goes through it.
 */
export function plainOptions(cluster: Pick<Entry, 'body'>, user: Pick<Entry, 'body'> | undefined): RequestOptions | undefined {
  const onlyKeys = (body: Json, keys: readonly string[]) => Object.keys(body).every((k) => keys.includes(k));
  if (!onlyKeys(cluster.body, ['server', 'insecure-skip-tls-verify'])) return undefined;
  if (user && !onlyKeys(user.body, ['token'])) return undefined;
  const token = user?.body['token'];
  if (token !== undefined && typeof token !== 'string') return undefined;
  return { headers: token ? { Authorization: `Bearer ${token}` } : {} };
}

/** TLS material and auth headers from client-node, including exec/auth-provider plugins. */
async function applyWithClientNode(
  cluster: Entry,
  user: Entry | undefined,
  contextName: string,
  server: string,
  insecure: boolean,
  source: string,
): Promise<RequestOptions> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  const clusterBody: Json = { ...cluster.body, server };
  // client-node refuses http:// servers unless TLS verification is off; TLS is moot for them anyway.
  if (insecure || server.startsWith('http:')) {
    clusterBody['insecure-skip-tls-verify'] = true;
    delete clusterBody['certificate-authority'];
    delete clusterBody['certificate-authority-data'];
  }
  const userName = user?.name ?? 'anonymous';
  const doc = {
    clusters: [{ name: cluster.name, cluster: clusterBody }],
    users: [{ name: userName, user: user?.body ?? {} }],
    contexts: [{ name: contextName, context: { cluster: cluster.name, user: userName } }],
    'current-context': contextName,
  };
  const options: RequestOptions = {};
  try {
    // JSON is YAML: client-node parses it with its own loader, without touching the file system.
    kc.loadFromString(JSON.stringify(doc));
    await kc.applyToHTTPSOptions(options);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new ConfigError(`${source}: cannot use credentials of user "${userName}": ${msg.split('\n', 1)[0]}`);
  }
  return options;
}

function fromServiceAccount(dir: string, env: NodeJS.ProcessEnv, insecure: boolean): TargetConfig {
  const host = env.KUBERNETES_SERVICE_HOST ?? '';
  const port = env.KUBERNETES_SERVICE_PORT ?? '443';
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const server = parseServerUrl(`https://${hostPart}:${port}`, 'KUBERNETES_SERVICE_HOST/PORT');
  const token = readConfigFile(join(dir, 'token'), 'service-account token').trim();
  const caPath = join(dir, 'ca.crt');
  const tls: TargetTls = { insecureSkipTlsVerify: insecure };
  if (!insecure && exists(caPath)) tls.ca = readConfigFile(caPath, 'service-account CA');
  return { server, tls, headers: { Authorization: `Bearer ${token}` }, source: `in-cluster service account (${dir})` };
}
