// Why: a run of the `svc` names against an upstream server fails every named-group check for the
// suite's own reason; discovery tells, and the CLI refuses with the right --profile named.
import { describe, expect, it } from 'vitest';
import { profileMismatch, profiles } from '../../../reference/profile.ts';

describe('profileMismatch', () => {
  it('names k8s for a server of k8s.io groups under the svc profile, and svc the other way round', () => {
    expect(profileMismatch(['apps', 'coordination.k8s.io', 'events.k8s.io'], profiles.svc)).toBe('k8s');
    expect(profileMismatch(['apps', 'coordination.svc.io'], profiles.k8s)).toBe('svc');
  });

  it('accepts the chosen profile, even beside groups of the other suffix', () => {
    expect(profileMismatch(['coordination.svc.io', 'metrics.k8s.io'], profiles.svc)).toBeUndefined();
    expect(profileMismatch(['coordination.k8s.io'], profiles.k8s)).toBeUndefined();
  });

  it('cannot tell from the core group or from groups of neither suffix', () => {
    expect(profileMismatch([], profiles.svc)).toBeUndefined();
    expect(profileMismatch(['apps', 'batch', 'example.com'], profiles.k8s)).toBeUndefined();
  });

  it('does not take a suffix that is only a substring of a group name', () => {
    expect(profileMismatch(['notk8s.io'], profiles.svc)).toBeUndefined();
  });
});
