// Generator contracts (docs/architecture.md "Generation apart from execution") for credential-provider files: valid files have no
// errors, invalid ones break the rule they name.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { profiles } from '../../../reference/profile.ts';
import { credentialConfigArb, invalidCredentialConfigArb } from '../../../generators/nodeagent-credentials.ts';
import { validateCredentialProviderConfig } from '../../../reference/nodeagent/credential-provider.ts';

describe('credential-provider generators', () => {
  const p = profiles.svc;
  it('valid files have no errors; invalid ones break the rule they name', () => {
    fc.assert(
      fc.property(credentialConfigArb(p), ({ doc }) => {
        expect(validateCredentialProviderConfig(doc, p).errors).toEqual([]);
      }),
      { numRuns: 100, seed: 4 },
    );
    fc.assert(
      fc.property(invalidCredentialConfigArb(p), ({ doc, violation }) => {
        expect(validateCredentialProviderConfig(doc, p).errors.map((e) => e.clause)).toContain(violation!.clause);
      }),
      { numRuns: 200, seed: 5 },
    );
  });
});
