// rest:4.7.10's probe: the map type a server applied is read from the ownership (2.6 fieldsV1) it
// recorded for a manager that applied `spec.m: {x}`; trees as kube-apiserver 1.24 answers them.
import { describe, expect, it } from 'vitest';
import { mapTypeOwnedIn } from '../../../../reference/apply/index.ts';

describe('mapTypeOwnedIn', () => {
  it('granular: the entry is owned', () => {
    expect(mapTypeOwnedIn({ 'f:spec': { 'f:m': { 'f:x': {} } } })).toBe('granular');
    expect(mapTypeOwnedIn({ 'f:spec': { 'f:m': { '.': {}, 'f:x': {} } } })).toBe('granular');
  });
  it('atomic: the whole map is a leaf', () => {
    expect(mapTypeOwnedIn({ 'f:spec': { 'f:m': {} } })).toBe('atomic');
  });
  it('neither: no map, another entry, a malformed tree', () => {
    expect(mapTypeOwnedIn({ 'f:spec': {} })).toBeUndefined();
    expect(mapTypeOwnedIn({ 'f:spec': { 'f:m': { 'f:y': {} } } })).toBeUndefined();
    expect(mapTypeOwnedIn({ 'f:spec': { 'f:m': { 'f:x': {}, 'f:y': {} } } })).toBeUndefined();
    expect(mapTypeOwnedIn({ 'f:spec': { 'f:m': [] } })).toBeUndefined();
    expect(mapTypeOwnedIn(undefined)).toBeUndefined();
  });
});
