/**
 * Health endpoints (rest:4.2): paths, the verbose line format and `exclude`, and judges for what a
 * target answered.
 *
 * What the spec fixes and what it leaves open (interpretation, see the team notes):
 * - `[+]<name> ok` per check and `[+]<name> excluded: ok` for an excluded one: fixed, on every
 *   endpoint that takes `verbose`.
 * - The closing line `healthz check passed`: the `verbose` row quotes it, and upstream prints it only
 *   on `/healthz` (`/livez` and `/readyz` end with `livez check passed` / `readyz check passed`). We bind
 *   it to `/healthz` only; on the other two the closing line is recorded as unspecified.
 * - Bodies without `verbose`, and everything about failing checks (rest:7.7), are not shown: recorded,
 *   never failed. The status code is the only machine signal (rest:4.2.1).
 *
 *   parseHealthLines('[+]ping ok\n[+]etcd excluded: ok\nhealthz check passed')
 *     -> { checks: [{ name: 'ping', excluded: false }, { name: 'etcd', excluded: true }], last: 'healthz check passed', ... }
 */
import { fail, pass, rule, unspecified, type Judgement } from './judgement.ts';
import { tableClauseId, type ClauseId } from './catalog/clause-id.ts';

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

export const okLine = (name: string): string => `[+]${name} ok`;
export const excludedLine = (name: string): string => `[+]${name} excluded: ok`;
export const HEALTHZ_PASSED = 'healthz check passed';

/** `/livez`, `/readyz/etcd`: individual checks exist under `/livez` and `/readyz` only (rest:4.2). */
export function healthPath(endpoint: HealthEndpoint, check?: string): string {
  return check === undefined ? `/${endpoint}` : `/${endpoint}/${check.split('/').map(encodeURIComponent).join('/')}`;
}

export const clauseOfEndpoint = (e: HealthEndpoint, single: boolean): ClauseId =>
  tableClauseId(single ? `rest:4.2/${e}-check` : `rest:4.2/${e}`);

export interface HealthLines {
  readonly checks: readonly { readonly name: string; readonly excluded: boolean }[];
  /** Lines that start with `[+]` but are neither form. */
  readonly malformed: readonly string[];
  /** Last non-empty line, when it is not a check line. */
  readonly last: string | undefined;
}

const OK = /^\[\+\](\S+) ok$/;
const EXCLUDED = /^\[\+\](\S+) excluded: ok$/;

/** rest:4.2.2: a check's name is the text between `[+]` and `ok`. */
export function parseHealthLines(body: string): HealthLines {
  const lines = body
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l !== '');
  const checks: { name: string; excluded: boolean }[] = [];
  const malformed: string[] = [];
  for (const l of lines) {
    const ex = EXCLUDED.exec(l);
    const ok = ex ? null : OK.exec(l);
    if (ex) checks.push({ name: ex[1]!, excluded: true });
    else if (ok) checks.push({ name: ok[1]!, excluded: false });
    else if (l.startsWith('[+]')) malformed.push(l);
  }
  const lastLine = lines[lines.length - 1];
  return { checks, malformed, last: lastLine === undefined || lastLine.startsWith('[') ? undefined : lastLine };
}

export interface HealthObservation {
  readonly status: number;
  readonly body: string;
}

/**
 * Judges one aggregated answer (`/healthz`, `/livez`, `/readyz`) to a request with `verbose` and
 * `exclude` as given. Anything but 200 means the target says it is unhealthy: recorded, not failed
 * (the suite cannot know the target is healthy), and its body is not shown by the spec (rest:7.7).
 */
export function judgeAggregate(
  endpoint: HealthEndpoint,
  q: { verbose: boolean; exclude: readonly string[] },
  o: HealthObservation,
): Judgement[] {
  const c = clauseOfEndpoint(endpoint, false);
  if (o.status !== 200)
    return [
      unspecified(
        'rest:7.7',
        "a healthy target answers 200; a failing check's output is not shown",
        `status ${o.status}: ${o.body.slice(0, 200)}`,
      ),
    ];
  const js: Judgement[] = [
    pass('rest:4.2.1', '200 means healthy', `status 200 on /${endpoint}`),
    pass(c, `GET /${endpoint} answers`, 'status 200'),
  ];
  if (!q.verbose) return js;
  const lines = parseHealthLines(o.body);
  js.push(
    rule(
      'rest:4.2/verbose',
      lines.checks.length > 0 && lines.malformed.length === 0,
      'one "[+]<name> ok" line per check (at least one)',
      `${lines.checks.length} check lines; malformed ${JSON.stringify(lines.malformed.slice(0, 3))}; body ${JSON.stringify(o.body.slice(0, 300))}`,
    ),
  );
  const excluded = new Set(q.exclude);
  for (const name of excluded) {
    const line = lines.checks.find((k) => k.name === name);
    js.push(
      rule(
        'rest:4.2/exclude',
        line?.excluded === true,
        `the line ${JSON.stringify(excludedLine(name))}`,
        line ? JSON.stringify(line.excluded ? excludedLine(name) : okLine(name)) : `no line for ${name}`,
      ),
    );
  }
  // Without a check line there is nothing to read "excluded: ok" on: no pass of exclude.
  const wrongly = lines.checks.filter((k) => k.excluded && !excluded.has(k.name)).map((k) => k.name);
  if (lines.checks.length > 0)
    js.push(
      rule(
        'rest:4.2/exclude',
        wrongly.length === 0,
        'only the checks named by exclude read "excluded: ok"',
        wrongly.length === 0 ? 'as expected' : `also excluded: ${wrongly.join(', ')}`,
      ),
    );
  if (endpoint === 'healthz') {
    js.push(
      rule(
        'rest:4.2/verbose',
        lines.last === HEALTHZ_PASSED,
        `last line ${JSON.stringify(HEALTHZ_PASSED)}`,
        JSON.stringify(lines.last ?? null),
      ),
    );
  } else if (lines.last !== undefined) {
    js.push(
      unspecified(
        'rest:4.2/verbose',
        `the closing line of /${endpoint} is not fixed by the spec (only /healthz's is)`,
        JSON.stringify(lines.last),
      ),
    );
  }
  return js;
}

/**
 * Judges `/livez/<name>` or `/readyz/<name>` for a name a healthy verbose answer listed as `ok`: the
 * name must address an endpoint (rest:4.2.2) that reports the same health (rest:4.2.1).
 */
export function judgeSingle(endpoint: 'livez' | 'readyz', name: string, o: HealthObservation): Judgement[] {
  if (o.status === 404) return [fail('rest:4.2.2', `/${endpoint}/${name} exists: ${name} was listed as "[+]${name} ok"`, 'status 404')];
  return [
    rule(clauseOfEndpoint(endpoint, true), o.status === 200, `200: the check reported ok in the aggregate`, `status ${o.status}`),
    pass('rest:4.2.2', `the name ${name} from the verbose output addresses /${endpoint}/${name}`),
  ];
}

/**
 * rest:7.4 on /healthz: rest:4.2 calls it deprecated, but the Warning signals of rest:9.3 are scoped to
 * API resources (group, version, resource labels), so whether /healthz warns is recorded, never
 * required. Here so the check decides nothing itself.
 *
 *   noteHealthzWarning(undefined) -> unspecified rest:7.4 ... 'no Warning header'
 */
export function noteHealthzWarning(warning: string | undefined): Judgement {
  return unspecified(
    'rest:7.4',
    '/healthz is deprecated since v1.16; whether it carries a Warning is not fixed',
    warning === undefined ? 'no Warning header' : `Warning: ${warning}`,
  );
}
