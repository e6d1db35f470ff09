import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearestNames } from '../../../harness/case/did-you-mean.ts';

describe('did you mean', () => {
  it('edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('the nearest names, none much farther than the nearest, in the known order on ties', () => {
    expect(nearestNames('health-endpoint', ['apply-points', 'health-endpoints', 'paging-snapshot'])).toEqual(['health-endpoints']);
    expect(nearestNames('rest:4.4.99', ['rest:4.4.1', 'rest:4.4.2', 'rest:4.4.3', 'rest:4.4.4', 'node:2.2'])).toEqual([
      'rest:4.4.1',
      'rest:4.4.2',
      'rest:4.4.3',
    ]);
    expect(nearestNames('x', [])).toEqual([]);
  });

  it('the phrase', () => {
    expect(didYouMean('rest-wach', ['rest-watch', 'rest-crud'])).toBe('; did you mean rest-watch?');
    expect(didYouMean('ab', ['aa', 'bb'])).toBe('; did you mean aa or bb?');
    expect(didYouMean('ab', [])).toBe('');
  });
});
