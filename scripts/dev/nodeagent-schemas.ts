/**
 * `npm run docs:schemas`: writes the JSON Schemas of the node-agent configuration and the credential
 * provider file per profile to docs/schemas/<profile>/, from the model (reference/nodeagent/json-schema.ts),
 * and that of results/summary.json to docs/schemas/ (reports/summary-schema.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { profiles } from '../../reference/profile.ts';
import { configKind } from '../../reference/nodeagent/config.ts';
import { credentialProviderConfigSchema, nodeagentConfigSchema } from '../../reference/nodeagent/json-schema.ts';
import { CREDENTIAL_PROVIDER_KIND } from '../../reference/nodeagent/credential-provider.ts';
import { summaryJsonSchema } from '../../reports/summary-schema.ts';
import { compareJsonSchema } from '../../reports/compare-schema.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function schemaFiles(): { path: string; content: string }[] {
  return [
    { path: path.join(root, 'docs', 'schemas', 'summary.schema.json'), content: `${JSON.stringify(summaryJsonSchema, null, 2)}\n` },
    { path: path.join(root, 'docs', 'schemas', 'compare.schema.json'), content: `${JSON.stringify(compareJsonSchema, null, 2)}\n` },
    ...[profiles.svc, profiles.k8s].flatMap((p) => [
      {
        path: path.join(root, 'docs', 'schemas', p.name, `${configKind(p)}.schema.json`),
        content: `${JSON.stringify(nodeagentConfigSchema(p), null, 2)}\n`,
      },
      {
        path: path.join(root, 'docs', 'schemas', p.name, `${CREDENTIAL_PROVIDER_KIND}.schema.json`),
        content: `${JSON.stringify(credentialProviderConfigSchema(p), null, 2)}\n`,
      },
    ]),
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const f of schemaFiles()) {
    mkdirSync(path.dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.content);
    process.stdout.write(`wrote ${path.relative(root, f.path)}\n`);
  }
}
