// docs/nodeagent-fields.md is generated from the model: it must be what `npm run docs:nodeagent` renders now.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { NODEAGENT_DOC, renderNodeagentFieldsDoc } from '../../../scripts/dev/nodeagent-docs.ts';
import { configFields } from '../../../reference/nodeagent/config-fields.ts';

describe('docs/nodeagent-fields.md', () => {
  it('is up to date with the model (run `npm run docs:nodeagent`)', () => {
    expect(readFileSync(NODEAGENT_DOC, 'utf8')).toBe(renderNodeagentFieldsDoc());
  });

  it('has a row for every field of 2.2', () => {
    const doc = renderNodeagentFieldsDoc();
    for (const f of configFields) expect(doc).toContain(`| \`${f.name}\` |`);
  });
});
