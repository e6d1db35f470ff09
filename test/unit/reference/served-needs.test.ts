// Why: the reproducer of a "not served" finding decides by these needs; each must fail on the answer
// that showed the feature absent and hold on an answer that serves it.
import { describe, expect, it } from 'vitest';
import { servedNeeds } from '../../../reference/features.ts';
import { evaluateNeeds, type AnswerData } from '../../../reference/answer-checks.ts';

const ok = (feature: Parameters<typeof servedNeeds>[0], answer: AnswerData, more: Parameters<typeof servedNeeds>[2] = {}) =>
  evaluateNeeds(servedNeeds(feature, { request: 0 }, more), (i) => (i === 0 ? answer : undefined)).every((r) => r.ok);
const answer = (status: number, body: unknown, contentType = 'application/json'): AnswerData => ({
  status,
  headers: { 'content-type': contentType },
  body,
});

describe('servedNeeds', () => {
  it('a verb: 2xx, never the 405 of a server without it', () => {
    expect(ok('put', answer(200, {}))).toBe(true);
    expect(ok('put', answer(405, { kind: 'Status' }))).toBe(false);
  });

  it('discovery: the resource listed by name, not only a 200', () => {
    expect(ok('discovery', answer(200, { resources: [{ name: 'pods' }, { name: 'configmaps' }] }), { resource: 'configmaps' })).toBe(true);
    expect(ok('discovery', answer(200, { resources: [{ name: 'pods' }] }), { resource: 'configmaps' })).toBe(false);
    expect(ok('discovery', answer(404, { kind: 'Status' }), { resource: 'configmaps' })).toBe(false);
  });

  it('generateName: 2xx with a name the server completed', () => {
    expect(ok('generate-name', answer(201, { metadata: { name: 'probe-g-x1' } }))).toBe(true);
    expect(ok('generate-name', answer(201, { metadata: {} }))).toBe(false);
    expect(ok('generate-name', answer(422, { kind: 'Status' }))).toBe(false);
  });

  it('protobuf: the answer in the media type asked for, not a JSON fallback', () => {
    const mediaType = 'application/vnd.svc.protobuf';
    expect(ok('protobuf', answer(200, '', mediaType), { mediaType })).toBe(true);
    expect(ok('protobuf', answer(200, {}), { mediaType })).toBe(false);
  });
});
