/**
 * CredentialProvider `matchImages` (spec 2.1): "Patterns of registry domain with optional port and
 * path. Globs allowed in the domain (as subdomains or top-level domains) but not in port or path; one
 * glob matches one subdomain segment only. If one pattern matches the image, the plugin is called."
 *
 * Spec 2.5 says the complete match conditions are not shown, so every decision says which kind it is:
 *  - fixed by the spec: a glob in the domain matches exactly one dot-separated segment (so the pattern
 *    and the image host have the same number of segments), the port must be equal (a pattern without
 *    a port matches only images without one), a glob in port or path makes the pattern invalid.
 *  - `unspecified: true`: the outcome would flip under another reasonable reading of the spec. We
 *    follow upstream (kubelet credentialprovider `URLsMatchStr`, images normalised as the kubelet does
 *    before the lookup) where the brief does, and test each reading the spec leaves open:
 *      case sensitivity, path prefix on segment boundaries (upstream: plain string prefix!), stripping
 *      of `:tag` / `@digest`, Docker Hub normalisation of registry-less names (`nginx`), and globs other
 *      than a whole-segment `*` (`app*`, `?`, `[a-z]`: Go filepath.Match syntax upstream).
 *
 *   matchImage('*.registry.io', 'a.registry.io/img') -> { matches: true, reason: '...' }
 */

export type MatchDecision = { matches: boolean; reason: string; unspecified?: boolean };

const GLOB_CHARS = /[*?[\]\\]/;

type Pattern = { host: string; hostParts: string[]; port: string; path: string };
type Image = { host: string; hostParts: string[]; port: string; path: string; registryless: boolean };

/** Go `net.SplitHostPort`, falling back (as upstream does on error) to the whole text with no port. */
function splitHostPort(authority: string): { host: string; port: string } {
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    if (close > 0 && authority[close + 1] === ':') return { host: authority.slice(1, close), port: authority.slice(close + 2) };
    return { host: authority, port: '' };
  }
  const colon = authority.lastIndexOf(':');
  if (colon < 0 || authority.indexOf(':') !== colon) return { host: authority, port: '' };
  return { host: authority.slice(0, colon), port: authority.slice(colon + 1) };
}

/** Go filepath.Match for one host segment (no '/' can occur in it), as an anchored RegExp, or an error. */
function segmentGlob(glob: string): RegExp | string {
  let re = '';
  const esc = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\') {
      const next = glob[i + 1];
      if (next === undefined) return `malformed glob "${glob}": trailing backslash`;
      re += esc(next);
      i++;
    } else if (c === '[') {
      let j = i + 1;
      let cls = '';
      if (glob[j] === '^') {
        cls = '^';
        j++;
      }
      let items = 0;
      for (;;) {
        const d = glob[j];
        if (d === undefined) return `malformed glob "${glob}": unclosed [`;
        if (d === ']' && items > 0) break;
        const lo = d === '\\' ? glob[++j] : d;
        if (lo === undefined || (d !== '\\' && (lo === '-' || lo === ']'))) return `malformed glob "${glob}": bad character class`;
        j++;
        if (glob[j] === '-' && glob[j + 1] !== ']') {
          let hi = glob[j + 1];
          j += 2;
          if (hi === '\\') hi = glob[j++];
          if (hi === undefined || hi < lo) return `malformed glob "${glob}": bad range`;
          cls += `${esc(lo)}-${esc(hi)}`;
        } else cls += esc(lo);
        items++;
      }
      re += `[${cls}]`;
      i = j;
    } else re += esc(c);
  }
  return new RegExp(`^${re}$`);
}

function parsePattern(pattern: string): Pattern | string {
  if (pattern === '') return 'empty pattern';
  if (/\s/.test(pattern)) return `pattern "${pattern}" contains white space`;
  if (pattern.includes('://')) return `pattern "${pattern}" has a scheme; only domain, optional port and path are allowed`;
  const slash = pattern.indexOf('/');
  const authority = slash < 0 ? pattern : pattern.slice(0, slash);
  const path = slash < 0 ? '' : pattern.slice(slash);
  const { host, port } = splitHostPort(authority);
  if (GLOB_CHARS.test(port)) return `pattern "${pattern}" has a glob in its port "${port}" (spec 2.1: globs only in the domain)`;
  if (GLOB_CHARS.test(path)) return `pattern "${pattern}" has a glob in its path "${path}" (spec 2.1: globs only in the domain)`;
  if (!/^[0-9]*$/.test(port)) return `pattern "${pattern}" has a non-numeric port "${port}"`;
  if (host === '') return `pattern "${pattern}" has no registry domain`;
  const hostParts = host.split('.');
  for (const part of hostParts) {
    const g = segmentGlob(part);
    if (typeof g === 'string') return `pattern "${pattern}": ${g}`;
  }
  return { host, hostParts, port, path };
}

/** Error text for a pattern that can never match (glob in port or path, malformed), else undefined. */
export function validatePattern(pattern: string): string | undefined {
  const p = parsePattern(pattern);
  return typeof p === 'string' ? p : undefined;
}

/**
 * Is a glob in the path the pattern's only fault? (`registry.io/team/*`: upstream's kubelet accepts it,
 * refusing a glob in the port; the planted fault path-globs-allowed does the same.)
 */
export function globOnlyInPath(pattern: string): boolean {
  const slash = pattern.indexOf('/');
  return slash >= 0 && GLOB_CHARS.test(pattern.slice(slash)) && validatePattern(pattern.slice(0, slash)) === undefined;
}

/** How an image reference is read; the primary reading is `READING`, the others probe the spec's gaps. */
type Reading = { stripTagDigest: boolean; normalizeHub: boolean; caseInsensitive: boolean; stringPrefix: boolean };
const READING: Reading = { stripTagDigest: true, normalizeHub: true, caseInsensitive: false, stringPrefix: false };

/** Docker reference rule: the first component is a registry iff it has '.' or ':' or is `localhost`. */
const looksLikeRegistry = (c: string) => c.includes('.') || c.includes(':') || c === 'localhost';

function parseImage(image: string, r: Reading): Image | string {
  if (image === '') return 'empty image';
  if (/\s/.test(image)) return `image "${image}" contains white space`;
  let rest = image;
  if (r.stripTagDigest) {
    const at = rest.indexOf('@');
    if (at >= 0) rest = rest.slice(0, at);
  }
  const parts = rest.split('/');
  let authority: string;
  let pathParts: string[];
  let registryless = false;
  const first = parts[0] ?? '';
  if (parts.length > 1 && looksLikeRegistry(first)) [authority, pathParts] = [first, parts.slice(1)];
  else if (r.normalizeHub) {
    registryless = true;
    authority = 'docker.io';
    pathParts = parts.length === 1 ? ['library', ...parts] : parts;
  } else [authority, pathParts] = [first, parts.slice(1)];
  if (r.stripTagDigest && pathParts.length > 0) {
    const last = pathParts[pathParts.length - 1] as string;
    const colon = last.indexOf(':');
    if (colon >= 0) pathParts = [...pathParts.slice(0, -1), last.slice(0, colon)];
  }
  const { host, port } = splitHostPort(authority);
  return { host, hostParts: host.split('.'), port, path: pathParts.length > 0 ? '/' + pathParts.join('/') : '', registryless };
}

const segments = (path: string) => path.split('/').filter((s) => s !== '');

/** One reading's decision, plus whether it leaned on a glob the spec does not define. */
function decide(pattern: Pattern, image: Image, r: Reading): { matches: boolean; reason: string; fancyGlob: boolean } {
  const fold = (s: string) => (r.caseInsensitive ? s.toLowerCase() : s);
  const where = image.port === '' ? image.host : `${image.host}:${image.port}`;
  if (pattern.port !== image.port) {
    const p = (x: string) => (x === '' ? 'no port' : `port ${x}`);
    return { matches: false, reason: `port differs: pattern has ${p(pattern.port)}, image has ${p(image.port)}`, fancyGlob: false };
  }
  if (pattern.hostParts.length !== image.hostParts.length) {
    return {
      matches: false,
      reason: `host "${image.host}" has ${image.hostParts.length} segment(s), pattern "${pattern.host}" has ${pattern.hostParts.length}; a glob matches exactly one segment`,
      fancyGlob: false,
    };
  }
  const pPath = fold(pattern.path);
  const iPath = fold(image.path);
  if (r.stringPrefix) {
    if (!iPath.startsWith(pPath))
      return { matches: false, reason: `path "${image.path}" does not start with "${pattern.path}"`, fancyGlob: false };
  } else {
    const ps = segments(pPath);
    const is = segments(iPath);
    if (ps.length > is.length || ps.some((s, i) => s !== is[i])) {
      return { matches: false, reason: `path "${image.path}" is not under "${pattern.path}" (segment-wise prefix)`, fancyGlob: false };
    }
  }
  let fancyGlob = false;
  for (let i = 0; i < pattern.hostParts.length; i++) {
    const glob = fold(pattern.hostParts[i] as string);
    const part = fold(image.hostParts[i] as string);
    const re = segmentGlob(glob);
    const fancy = glob !== '*' && GLOB_CHARS.test(glob);
    fancyGlob ||= fancy;
    if (typeof re === 'string' || !re.test(part)) {
      return { matches: false, reason: `host segment ${i + 1} "${part}" does not match "${glob}"`, fancyGlob: fancy };
    }
  }
  const pathNote = pattern.path === '' ? 'pattern has no path' : `path "${image.path}" is under "${pattern.path}"`;
  return { matches: true, reason: `host "${where}" matches "${pattern.host}" segment by segment, same port, ${pathNote}`, fancyGlob };
}

const GAPS: [keyof Reading, string][] = [
  ['caseInsensitive', 'case sensitivity'],
  ['stringPrefix', 'whether the path prefix must end on a "/" boundary (upstream: plain string prefix)'],
  ['stripTagDigest', 'whether the :tag / @digest is ignored'],
  ['normalizeHub', 'how an image without a registry is read (upstream: docker.io/library/...)'],
];

/** Does `pattern` select the credential provider for `image`? With a one-line reason. */
export function matchImage(pattern: string, image: string): MatchDecision {
  const p = parsePattern(pattern);
  if (typeof p === 'string') return { matches: false, reason: `invalid pattern, never matches: ${p}` };
  const img = parseImage(image, READING);
  if (typeof img === 'string') return { matches: false, reason: `invalid image: ${img}` };

  const primary = decide(p, img, READING);
  // Flip one open reading at a time; any flip that changes the outcome makes the decision unspecified.
  const open: string[] = [];
  for (const [key, what] of GAPS) {
    const alt = { ...READING, [key]: !READING[key] };
    const altImage = parseImage(image, alt);
    if (typeof altImage === 'string') continue;
    if (decide(p, altImage, alt).matches !== primary.matches) open.push(what);
  }
  if (primary.fancyGlob) open.push('glob syntax other than a whole-segment "*"');
  if (open.length === 0) return { matches: primary.matches, reason: primary.reason };
  return { matches: primary.matches, reason: `${primary.reason}; unspecified (2.5): depends on ${open.join(', ')}`, unspecified: true };
}

/**
 * The provider is called if any pattern matches. A match fixed by the spec wins over an unspecified
 * one; a "no" is unspecified when any pattern's "no" was.
 */
export function matchesAny(patterns: readonly string[], image: string): MatchDecision & { pattern?: string } {
  if (patterns.length === 0) return { matches: false, reason: 'no patterns: matchImages is required and empty matches nothing' };
  const decisions = patterns.map((pattern) => ({ pattern, ...matchImage(pattern, image) }));
  const sure = decisions.find((d) => d.matches && !d.unspecified);
  if (sure) return { matches: true, pattern: sure.pattern, reason: `"${sure.pattern}": ${sure.reason}` };
  const maybe = decisions.find((d) => d.matches);
  if (maybe) return { matches: true, pattern: maybe.pattern, reason: `"${maybe.pattern}": ${maybe.reason}`, unspecified: true };
  const open = decisions.filter((d) => d.unspecified);
  if (open.length > 0) {
    return {
      matches: false,
      reason: `no pattern matches; ${open.map((d) => `"${d.pattern}": ${d.reason}`).join(' | ')}`,
      unspecified: true,
    };
  }
  return { matches: false, reason: `none of ${patterns.length} pattern(s) matches "${image}"` };
}
