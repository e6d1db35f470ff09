/**
 * The server state as plain HTTP sees it, so client tests judge what a client did without asking
 * the client itself. Uses Node's built-in fetch with no dispatcher of its own.
 */
export interface Read {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

/** fetch that honours 429 + Retry-After as any client must (the retry-after-429 variation), a few times. */
export async function httpFetch(url: string, init: RequestInit = {}): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    if (res.status !== 429 || attempt >= 4) return res;
    await res.arrayBuffer();
    const wait = Math.min(1_000, 1_000 * Number(res.headers.get('retry-after') ?? '0'));
    await new Promise((r) => setTimeout(r, Number.isFinite(wait) ? wait : 0));
  }
}

export async function httpJson(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; contentType?: string } = {},
): Promise<Read> {
  const res = await httpFetch(base + path, {
    method: init.method ?? 'GET',
    headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': init.contentType ?? 'application/json' }) },
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export const configMapsPath = (ns: string, name?: string) => `/api/v1/namespaces/${ns}/configmaps${name === undefined ? '' : `/${name}`}`;

export async function createNamespace(base: string, ns: string): Promise<void> {
  const r = await httpJson(base, '/api/v1/namespaces', {
    method: 'POST',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
  });
  // 200 or 201: the spec shows both for a create (the status-200-on-create variation).
  if (r.status !== 201 && r.status !== 200) throw new Error(`creating namespace ${ns}: ${r.status} ${JSON.stringify(r.body)}`);
}

export async function createConfigMap(base: string, ns: string, name: string, data: Record<string, string>): Promise<Read> {
  const r = await httpJson(base, configMapsPath(ns), {
    method: 'POST',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data },
  });
  if (r.status !== 201 && r.status !== 200) throw new Error(`creating configmap ${ns}/${name}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

export const namesOf = (list: Read) => ((list.body['items'] ?? []) as { metadata: { name: string } }[]).map((i) => i.metadata.name);

export interface ManagedFieldsEntry {
  readonly manager: string;
  readonly operation: string;
  readonly fieldsV1?: Record<string, unknown>;
}
export const managedFieldsOf = (obj: Record<string, unknown>) =>
  ((obj['metadata'] as Record<string, unknown> | undefined)?.['managedFields'] ?? []) as ManagedFieldsEntry[];
/** True when the entry's fieldsV1 owns `.data.<key>`. */
export const ownsDataKey = (e: ManagedFieldsEntry | undefined, key: string) =>
  !!e &&
  typeof e.fieldsV1?.['f:data'] === 'object' &&
  e.fieldsV1['f:data'] !== null &&
  `f:${key}` in (e.fieldsV1['f:data'] as Record<string, unknown>);
