/**
 * The same reproducer as a node test file: `node --test FILE` with Node alone (18 or
 * later: fetch, node:test and node:assert are built in), nothing of this repository. It sends what the
 * curl script sends, with the same fresh names and learned values, evaluates the same needs with the
 * same evaluator (reference/answer-checks.ts), and its one test fails while the failure is present.
 *
 * Written only where the answer needed is data: a test that could not decide would pass in a CI that
 * runs it, and so call a failure gone that nobody checked.
 */
import type { Exchange } from '../transport/index.ts';
import { isSecretHeader, redactText } from '../transport/index.ts';
import { EVALUATOR_JS, type AnswerNeed } from '../../reference/answer-checks.ts';
import { PREMISES_JS, REMAP_JS, mustLearn, premises } from './replay-premises.ts';
import { LATE_JS, lateWatches, pauses } from './replay-timing.ts';
import {
  DOCUMENTS_JS,
  SKIPPED_HEADERS,
  heldWatches,
  isCrdCreate,
  isSetup,
  isStream,
  isWebhookCreate,
  replayPlan,
  bodyText,
  isText,
  type CurlOptions,
} from './curl.ts';

/** One request as the test file sends it: literal texts, rewritten at run time to the run's fresh names. */
interface PlannedRequest {
  readonly i: number;
  readonly method: string;
  readonly path: string;
  readonly query: readonly (readonly [string, string | null])[];
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly bodyBase64?: string;
  readonly auth: 'token' | 'none' | 'unknown' | 'restricted';
  readonly setup?: true;
  /** A watch: read for at most this many seconds, in the background. */
  readonly streamSeconds?: number;
  /** Milliseconds the failing case waited before sending it. */
  readonly pauseMs?: number;
  /** A custom resource definition: the path that serves its type, waited for before going on. */
  readonly served?: string;
  /** Deleted when the test ends (a definition or webhook configuration it created). */
  readonly cleanup?: string;
}

export function toNodeTest(exchanges: readonly Exchange[], opts: CurlOptions & { readonly needs: readonly AnswerNeed[] }): string {
  const server = redactText(opts.server.replace(/\/+$/, ''));
  const plan = replayPlan(exchanges, opts.needs);
  const about = opts.about;
  const waits = pauses(exchanges, plan.order);
  const requests = plan.order.map((i) => ({ ...planned(exchanges[i]!, i), pauseMs: waits.get(i) }));
  const line = (s: string) => s.replace(/\s*\n\s*/g, ' ').slice(0, 400);
  return [
    `// Reproducer by svc-conformance${about ? ` for ${about.clause}` : ''}, as a node test: ${exchanges.length} request(s), recorded against ${server}.`,
    ...(about
      ? [
          `//   expected: ${line(about.expected)}`,
          `//   observed: ${line(about.observed)}`,
          ...(about.replay ? [`//   found by: ${line(about.replay)}`] : []),
        ]
      : []),
    '//',
    '// Run: node --test THIS_FILE (Node 18 or later; nothing else, fetch is built in). The test FAILS while the',
    '// failure is present and passes once the target gives the answer the spec needs; a setup request refused or',
    '// a request without answer fails it too, with "cannot run" in the message (the test could not ask).',
    `//   SERVER    base URL of the target (default: the recorded one); plain http:// works`,
    '//   TOKEN     bearer token sent with the requests; unset, they carry no credentials',
    '//   RESTRICTED_TOKEN  bearer token of the restricted identity, where the case used one',
    '//   INSECURE  1: skip certificate verification',
    '//   a CA bundle: NODE_EXTRA_CA_CERTS=ca.pem node --test THIS_FILE (fetch takes no CA per request; Node reads this at start)',
    "// It creates namespaces of its own (fresh names each run), sends the case's requests and deletes what it created.",
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    '',
    `const SERVER = (process.env.SERVER || ${JSON.stringify(server)}).replace(/\\/+$/, '');`,
    "if (process.env.INSECURE === '1') process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';",
    'const fresh = () => String(Math.floor(Math.random() * 1e9));',
    "// The run's namespaces and API groups, renamed for every run of this file (longest first).",
    `const NAMES = ${JSON.stringify([...plan.namespaces.map((n) => [n, 'ns']), ...plan.groups.map((g) => [g, 'group'])])}.map(([lit, kind]) => [lit, kind === 'ns' ? lit.slice(0, 50) + '-r' + fresh() : 'r' + fresh() + lit.slice(lit.indexOf('.'))]).sort((a, b) => b[0].length - a[0].length);`,
    `const NAMESPACES = NAMES.filter(([lit]) => ${JSON.stringify(plan.namespaces)}.includes(lit)).map(([, now]) => now);`,
    '// Values the server made up that the case sends again (resourceVersions, uids, continue tokens, generated names): where each is read, and from which request.',
    `const LEARNED = ${JSON.stringify(plan.learned.map((l) => ({ value: l.value, from: l.from, path: l.path })))};`,
    "// Each request's place in the send order (a watch is sent where it began): a value is learned only from one sent before.",
    `const POS = ${JSON.stringify(plan.position)};`,
    `const MUST_LEARN = ${JSON.stringify(mustLearn(plan.learned, opts.needs, plan.position).map((l) => l.value))};`,
    `const REQUESTS = ${JSON.stringify(requests, null, 1)};`,
    `const NEEDS = ${JSON.stringify(opts.needs)};`,
    `const PREMISES = ${JSON.stringify(premises(exchanges, opts.needs, isSetup))};`,
    '// Watches from a learned version: how long after learning it the failing case started each.',
    `const LATE_WATCHES = ${JSON.stringify(lateWatches(exchanges, plan.learned, opts.needs))};`,
    "// Watches from a version the failing case had compacted out of the target's history: the test waits until the target drops it.",
    `const DROPPED = ${JSON.stringify(opts.compacted === true ? heldWatches(exchanges, plan, opts.needs).map((d) => ({ stream: d.stream, value: plan.learned.find((l) => l.name === d.name)!.value })) : [])};`,
    REMAP_JS,
    PREMISES_JS,
    LATE_JS,
    `const evaluate = ${EVALUATOR_JS};`,
    DOCUMENTS_JS,
    RUNTIME_JS,
    '',
  ].join('\n');
}

function planned(e: Exchange, i: number): PlannedRequest {
  const req = e.request;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    if (isSecretHeader(name) || SKIPPED_HEADERS.has(name.toLowerCase())) continue;
    headers[name] = redactText(value);
  }
  const binary = req.body instanceof Uint8Array && !isText(req.body);
  const body = binary ? undefined : bodyText(req.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/json';
  const name = String((req.body as { metadata?: { name?: unknown } } | undefined)?.metadata?.name ?? '');
  const spec = (req.body as { spec?: { group?: unknown; versions?: { name?: unknown }[] } } | undefined)?.spec;
  const version = spec?.versions?.[0]?.name;
  return {
    i,
    method: req.method,
    path: redactText(req.path),
    query: (req.query ?? []).map(([k, v]) => [k, v === null ? null : redactText(v)] as const),
    headers,
    body: body === undefined ? undefined : redactText(body),
    bodyBase64: binary ? Buffer.from(req.body as Uint8Array).toString('base64') : undefined,
    auth: req.identity === undefined ? 'token' : req.identity === 'anonymous' ? 'none' : req.identity,
    setup: isSetup(e) ? true : undefined,
    streamSeconds: isStream(e) ? Math.max(3, Math.ceil(e.durationMs / 1000) + 2) : undefined,
    served: isCrdCreate(e) && typeof spec?.group === 'string' && typeof version === 'string' ? `/apis/${spec.group}/${version}` : undefined,
    cleanup: (isCrdCreate(e) || isWebhookCreate(e)) && name !== '' ? `${redactText(req.path)}/${name}` : undefined,
  };
}

/** The test itself, as plain JavaScript over the constants above. */
const RUNTIME_JS = String.raw`
const rename = (text) => { let out = text; for (const [lit, now] of NAMES) out = out.split(lit).join(now); return out; };
const get = (v, p) => p.reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), v);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function send(r, values, signal) {
  const known = (v) => LEARNED.find((x) => x.value === v && POS[x.from] < POS[r.i]);
  const query = r.query.map(([k, v]) => {
    const l = v !== null && v !== '' ? known(v) : undefined;
    const value = l ? values.get(l.value) : v === null ? null : rename(v);
    return value === null ? encodeURIComponent(k) : encodeURIComponent(k) + '=' + encodeURIComponent(value);
  });
  // A learned value sent as a whole path segment (a read of a generated name).
  const decode = (x) => { try { return decodeURIComponent(x); } catch { return x; } };
  const path = r.path.split('/').map((seg) => { const l = seg === '' ? undefined : known(decode(seg)); return l ? encodeURIComponent(values.get(l.value) ?? '') : rename(seg); }).join('/');
  const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, rename(v)]));
  if (r.auth === 'token' && process.env.TOKEN) headers.authorization = 'Bearer ' + process.env.TOKEN;
  if (r.auth === 'restricted' && process.env.RESTRICTED_TOKEN) headers.authorization = 'Bearer ' + process.env.RESTRICTED_TOKEN;
  if (r.auth === 'unknown') headers.authorization = 'Bearer not-a-token-of-this-server';
  let body;
  if (r.bodyBase64 !== undefined) body = Buffer.from(r.bodyBase64, 'base64');
  else if (r.body !== undefined) {
    // Learned values only as whole JSON strings: a version "6" must not replace the 6 in a name.
    body = rename(r.body);
    for (const l of LEARNED.filter((x) => POS[x.from] < POS[r.i])) body = body.split(JSON.stringify(l.value)).join(JSON.stringify(values.get(l.value)));
  }
  const url = SERVER + path + (query.length > 0 ? '?' + query.join('&') : '');
  return fetch(url, { method: r.method, headers, body, signal });
}

async function answerOf(res) {
  const text = await res.text();
  return toAnswer(res.status, res.headers, text);
}
function toAnswer(status, headers, text) {
  let body; try { body = JSON.parse(text); } catch { body = text; }
  const h = {}; if (headers) for (const [k, v] of headers) h[k.toLowerCase()] = v;
  return { status, headers: h, body, events: documents(text) };
}

test('the target gives the answer the spec needs', async (t) => {
  const answers = new Map();
  const values = new Map();
  const streams = [];
  const controllers = [];
  // When each answer was in (a watch: established), in ms.
  const times = new Map();
  const held = [];
  t.after(async () => {
    for (const c of controllers) c.abort();
    const auth = process.env.TOKEN ? { authorization: 'Bearer ' + process.env.TOKEN } : {};
    for (const ns of NAMESPACES) await fetch(SERVER + '/api/v1/namespaces/' + ns, { method: 'DELETE', headers: auth }).catch(() => {});
    for (const r of REQUESTS.filter((x) => x.cleanup)) await fetch(SERVER + rename(r.cleanup), { method: 'DELETE', headers: auth }).catch(() => {});
  });
  for (const r of REQUESTS) {
    if (r.pauseMs !== undefined) await sleep(r.pauseMs);
    const drop = DROPPED.find((d) => d.stream === r.i);
    if (drop !== undefined) {
      // A list at exactly that version answers 410 once the history dropped it (rest:6.1.3); up to 30 s.
      const auth = process.env.TOKEN ? { authorization: 'Bearer ' + process.env.TOKEN } : {};
      const probe = SERVER + rename(r.path) + '?resourceVersion=' + encodeURIComponent(values.get(drop.value) ?? '') + '&resourceVersionMatch=Exact';
      let gone = false;
      for (let k = 0; k < 150 && !gone; k++) { gone = (await fetch(probe, { headers: auth }).catch(() => ({ status: 0 }))).status === 410; if (!gone) await sleep(200); }
      if (!gone) held.push('version ' + values.get(drop.value) + ' was still in the history after 30 s');
    }
    if (r.streamSeconds !== undefined) {
      const ctl = new AbortController();
      controllers.push(ctl);
      const timer = setTimeout(() => ctl.abort(), r.streamSeconds * 1000);
      let established;
      const headersIn = new Promise((resolve) => (established = resolve));
      streams.push((async () => {
        let status = 0, headers, text = '';
        try {
          const res = await send(r, values, ctl.signal);
          established();
          status = res.status; headers = res.headers;
          const dec = new TextDecoder();
          for await (const chunk of res.body) text += dec.decode(chunk, { stream: true });
        } catch { /* the read ends at its time limit */ }
        established();
        clearTimeout(timer);
        answers.set(r.i, toAnswer(status, headers, text));
      })());
      // The watch is established once its answer's headers are in; at most 1 s otherwise.
      await Promise.race([headersIn, sleep(1000)]);
      times.set(r.i, Date.now());
      continue;
    }
    let a;
    try { a = await answerOf(await send(r, values)); } catch (e) { a = { status: 0, headers: {}, body: String(e), events: [] }; }
    answers.set(r.i, a);
    times.set(r.i, Date.now());
    t.diagnostic('request ' + r.i + ': ' + r.method + ' ' + rename(r.path) + ' -> ' + a.status);
    if (r.setup && !(a.status >= 200 && a.status < 300) && a.status !== 409) assert.fail('cannot run: setup request ' + r.i + ' was refused (' + a.status + ')');
    if (r.served) {
      let ok = false;
      const auth = process.env.TOKEN ? { authorization: 'Bearer ' + process.env.TOKEN } : {};
      for (let k = 0; k < 120 && !ok; k++) { ok = (await fetch(SERVER + rename(r.served), { headers: auth }).catch(() => ({ status: 0 }))).status === 200; if (!ok) await sleep(500); }
      if (!ok) assert.fail('cannot run: the custom resource type at ' + rename(r.served) + ' was not served within 60 s');
    }
    for (const l of LEARNED.filter((x) => x.from === r.i)) values.set(l.value, String(get(a.body, l.path) ?? ''));
  }
  await Promise.all(streams);
  const used = [...new Set(JSON.stringify(NEEDS).match(/"request":\d+/g).map((m) => Number(m.split(':')[1])))];
  const silent = used.filter((i) => { const a = answers.get(i); return a === undefined || a.status === 0; });
  if (silent.length > 0) assert.fail('cannot run: no answer to request(s) ' + silent.join(', '));
  // The recorded literals in the needs, as this run's values: learned values whole, names renamed.
  const literals = [...LEARNED.map((l) => [l.value, values.get(l.value) ?? '', true]), ...NAMES.map(([lit, now]) => [lit, now, false])];
  const needs = remap(NEEDS, literals);
  const lost = LEARNED.find((l) => MUST_LEARN.includes(l.value) && (values.get(l.value) ?? '') === '');
  const off = lost ? 'request ' + lost.from + ' answered without ' + lost.path.join('.') + ', which the failing case learned there and sent on: this run took another path than the failure' : diverged(PREMISES, (i) => answers.get(i));
  // A test cannot say "undecided": it fails, as when it cannot run, and never passes undecided.
  if (off !== undefined) assert.fail('cannot decide: ' + off);
  const results = evaluate(needs, (i) => answers.get(i));
  const open = results.find((r) => r.undecided);
  if (open !== undefined) assert.fail('cannot decide: ' + open.says + ' (' + open.observed + ')');
  for (const r of results) t.diagnostic((r.ok ? 'ok    ' : 'FAILS ') + r.says + ' (observed: ' + r.observed + ')');
  const tooLate = results.every((r) => r.ok) ? late(LATE_WATCHES, (i) => times.get(i)) : undefined;
  if (tooLate !== undefined) assert.fail('cannot decide: ' + tooLate);
  if (held.length > 0 && results.every((r) => r.ok)) assert.fail('cannot decide: ' + held[0] + ': the failing case watched from a version its history had dropped, and this run could not make the target drop it');
  assert.deepEqual(results.filter((r) => !r.ok).map((r) => r.says + ' (observed: ' + r.observed + ')'), [], 'the failure is present');
});`;
