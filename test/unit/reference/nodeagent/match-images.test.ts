// spec 2.1 matchImages. Rows marked FIXED follow from the spec text and must never be unspecified;
// rows marked OPEN hinge on a detail spec 2.5 says is not shown, so a target may answer either way.
import { describe, expect, it } from 'vitest';
import { matchImage, matchesAny, validatePattern } from '../../../../reference/nodeagent/match-images.ts';

type Row = [pattern: string, image: string, matches: boolean];

// Decided by the spec's own words: glob = one segment, port equal, prefix path, glob-free port/path.
const fixed: Row[] = [
  // upstream's examples
  ['*.registry.io', 'a.registry.io/img', true],
  ['*.registry.io', 'registry.io/img', false], // one glob is one segment, never zero
  ['*.registry.io', 'a.b.registry.io/img', false], // ... and never two
  ['*.*.registry.io', 'a.b.registry.io/img', true],
  ['*.*.registry.io', 'a.registry.io/img', false],
  ['*.docker.io', 'blah.docker.io/img', true],
  ['*.docker.io', 'not.right.io/img', false],
  ['registry.io.*', 'registry.io.com/img', true], // a glob as the last of three segments
  ['registry.io.*', 'registry.io/img', false],
  ['registry.*', 'registry.io/img', true], // glob as top-level domain
  ['registry.*', 'registry.co.uk/img', false],
  ['*', 'localhost/img', true], // a bare glob is any single-segment host
  ['*', 'localhost:5000/img', false], // ... without a port
  ['*', 'registry.io/img', false],
  ['*.io', 'registry.io/img', true],
  ['*.io', 'a.registry.io/img', false],
  ['registry.io', 'registry.io/img', true],
  ['registry.io', 'registry.io/team/img:1.0', true],
  ['registry.io', 'other.io/img', false],
  ['registry.io', 'registry.io:8080/img', false], // pattern without a port: image without a port only
  ['registry.io:8080', 'registry.io:8080/img', true],
  ['registry.io:8080', 'registry.io/img', false],
  ['registry.io:8080', 'registry.io:9090/img', false],
  ['registry.io:443', 'registry.io/img', false], // no default-port equivalence: ports compared as written
  ['*.registry.io:5000', 'eu.registry.io:5000/img', true],
  ['registry.io/foo', 'registry.io/foo/bar:1', true],
  ['registry.io/foo', 'registry.io/baz/bar', false],
  ['registry.io/foo/bar', 'registry.io/foo', false], // the pattern's path is longer than the image's
  ['*.registry.io/team', 'eu.registry.io/team/app:2', true],
  ['localhost', 'localhost/img', true],
  ['localhost:5000', 'localhost:5000/img:tag', true],
  // a glob in port or path: invalid, never matches
  ['registry.io:*', 'registry.io:8080/img', false],
  ['registry.io/*', 'registry.io/img', false],
  ['registry.io/team/*', 'registry.io/team/img', false],
  ['registry.io/te?m', 'registry.io/team/img', false],
];

describe('matchImage: decisions fixed by spec 2.1', () => {
  it.each(fixed)('%s vs %s -> %s', (pattern, image, matches) => {
    const d = matchImage(pattern, image);
    expect(d.matches).toBe(matches);
    expect(d.unspecified ?? false).toBe(false);
    expect(d.reason).not.toMatch(/\n/);
    expect(d.reason.length).toBeGreaterThan(10);
  });
});

// [pattern, image, our answer (upstream's where the brief agrees), the gap named in the reason]
const open: [string, string, boolean, RegExp][] = [
  // upstream compares paths with strings.HasPrefix, so it WOULD match "foobar"; the spec does not say
  ['registry.io/foo', 'registry.io/foobar', false, /boundary/],
  ['registry.io/foo', 'registry.io/foobar/img', false, /boundary/],
  // the tag or digest decides whether the pattern's path covers the image
  ['registry.io/foo/bar', 'registry.io/foo/bar:1', true, /tag/],
  ['registry.io/foo/bar', 'registry.io/foo/bar@sha256:0123abcd', true, /tag/],
  // case
  ['Registry.io', 'registry.io/img', false, /case/],
  ['*.REGISTRY.IO', 'a.registry.io/img', false, /case/],
  ['registry.io/Team', 'registry.io/team/img', false, /case/],
  // images with no registry: upstream reads nginx as docker.io/library/nginx
  ['docker.io', 'nginx', true, /without a registry/],
  ['docker.io/library', 'nginx:1.25', true, /without a registry/],
  ['*', 'nginx', false, /without a registry/],
  // partial-segment and non-* globs: Go filepath.Match upstream, syntax not given by the spec
  ['app*.registry.io', 'app1.registry.io/img', true, /glob syntax/],
  ['app*.registry.io', 'web.registry.io/img', false, /glob syntax/],
  ['registry?.io', 'registry1.io/img', true, /glob syntax/],
  ['[ab].registry.io', 'b.registry.io/img', true, /glob syntax/],
  ['[^ab].registry.io', 'b.registry.io/img', false, /glob syntax/],
];

describe('matchImage: decisions spec 2.5 leaves open', () => {
  it.each(open)('%s vs %s -> %s (unspecified)', (pattern, image, matches, gap) => {
    const d = matchImage(pattern, image);
    expect(d).toMatchObject({ matches, unspecified: true });
    expect(d.reason).toMatch(/unspecified \(2\.5\)/);
    expect(d.reason).toMatch(gap);
  });
});

describe('validatePattern', () => {
  const ok = [
    'registry.io',
    '*.registry.io',
    '*.*.registry.io',
    'registry.*',
    '*',
    'registry.io:8080',
    'registry.io/team/app',
    '*.registry.io:5000/team',
    'my-registry.example.com',
    '[::1]:5000',
  ];
  it.each(ok)('%s is valid', (p) => expect(validatePattern(p)).toBeUndefined());

  const bad: [string, RegExp][] = [
    ['', /empty/],
    ['registry.io:*', /glob in its port/],
    ['registry.io:80*', /glob in its port/],
    ['registry.io/*', /glob in its path/],
    ['registry.io/team/app?', /glob in its path/],
    ['registry.io/[ab]', /glob in its path/],
    ['*.registry.io:5000/*', /glob in its path/],
    ['registry.io:http', /non-numeric port/],
    ['https://registry.io', /scheme/],
    ['registry .io', /white space/],
    ['/team', /no registry domain/],
    ['[ab.registry.io', /malformed glob/],
    ['ab\\', /malformed glob/],
  ];
  it.each(bad)('%j is invalid', (p, why) => {
    expect(validatePattern(p)).toMatch(why);
    // ... and never matches, as a fixed (not unspecified) decision
    const d = matchImage(p, 'registry.io:5000/team/app:1');
    expect(d).toEqual({ matches: false, reason: expect.stringContaining('invalid pattern') });
  });
});

describe('matchesAny ("if one pattern matches the image, the plugin is called")', () => {
  it('calls the plugin when any one pattern matches', () => {
    expect(matchesAny(['other.io', '*.registry.io'], 'a.registry.io/img')).toMatchObject({ matches: true, pattern: '*.registry.io' });
  });
  it('does not call it when none matches', () => {
    const d = matchesAny(['other.io', '*.registry.io'], 'registry.io/img');
    expect(d).toMatchObject({ matches: false });
    expect(d.unspecified).toBeUndefined();
  });
  it('an empty list matches nothing', () => {
    expect(matchesAny([], 'registry.io/img').matches).toBe(false);
  });
  it('a match fixed by the spec wins over an unspecified one', () => {
    const d = matchesAny(['registry.io/foo/bar', 'registry.io'], 'registry.io/foo/bar:1');
    expect(d).toMatchObject({ matches: true, pattern: 'registry.io' });
    expect(d.unspecified).toBeUndefined();
  });
  it('only an unspecified match: matches, unspecified', () => {
    expect(matchesAny(['registry.io/foo/bar'], 'registry.io/foo/bar:1')).toMatchObject({ matches: true, unspecified: true });
  });
  it('an unspecified "no" keeps the overall "no" unspecified', () => {
    expect(matchesAny(['registry.io/foo', 'x.io'], 'registry.io/foobar')).toMatchObject({ matches: false, unspecified: true });
  });
  it('invalid patterns are skipped, valid ones still count', () => {
    expect(matchesAny(['registry.io/*', 'registry.io'], 'registry.io/img')).toMatchObject({ matches: true, pattern: 'registry.io' });
  });
});
