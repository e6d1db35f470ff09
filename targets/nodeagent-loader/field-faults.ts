/**
 * A planted fault for each field of the node-agent configuration (oracle strength: every field's
 * clause a default run passes has a fault that fails it). Two families, one fault per field:
 * `type-ignored/<field>` accepts a value of the wrong type in that field only; `range-ignored/<field>`
 * accepts a value of the right type that the field's own rule refuses. Kept apart from faults.ts (its
 * lookup reads both); `nodeagent validate --fault` accepts them by name.
 */
import { configFields, type FieldSpec } from '../../reference/nodeagent/config-fields.ts';
import { profiles } from '../../reference/profile.ts';
import { edgeClauses } from '../../generators/nodeagent-edges.ts';
import type { NodeagentFault } from './fault-type.ts';
import { tableClauseId } from '../../reference/catalog/clause-id.ts';

const FIELD_TYPES = 'nodeagent-field-types';
const INVALID = 'nodeagent-invalid-configs';
// Spelled as suites/checks/nodeagent.ts nodeagentEdgeCheckId spells it (targets do not import suites).
const edgeCheck = (clause: string) => `nodeagent-edges-${clause.replace(/^node:[\d.]+\//, '').replace(/[^A-Za-z0-9]+/g, '-')}`;
/** The clauses with an edge check: its edge files, every one on every seed. */
const withEdges: ReadonlySet<string> = new Set(edgeClauses(profiles.svc));
const edgeChecks = (clause: string) => (withEdges.has(clause) ? [edgeCheck(clause)] : []);

/** Fields whose refused edge values break another rule (a duration's syntax, a cross rule), which still refuses them. */
const REFUSED_BY_ANOTHER_RULE = new Set(['syncFrequency', 'containerLogMaxSize', 'shutdownGracePeriodCriticalPods']);

/** Every field of the configuration, nested members and list items' members too. */
function everyField(fields: readonly FieldSpec[]): FieldSpec[] {
  return fields.flatMap((f) => {
    const t = f.type.kind === 'list' ? f.type.of : f.type;
    return [f, ...(t.kind === 'object' ? everyField(t.fields) : [])];
  });
}

/** Members of the nested types (2.3, 2.4) whose name no other field has, so that `type:<name>` skips them alone. */
const nestedMembers = (() => {
  const all = everyField(configFields);
  return all.filter((f) => !configFields.includes(f) && all.filter((g) => g.name === f.name).length === 1);
})();

/** The rules of 2.1 no fault of faults.ts skips: the document's kind (and its apiVersion), and these provider fields (required, or a type). */
const CREDENTIAL_FIELDS = ['kind', 'providers', 'apiVersion', 'args', 'env'] as const;

export const nodeagentFieldFaults: readonly NodeagentFault[] = [
  ...CREDENTIAL_FIELDS.map((name) => ({
    name: `credential-rule-skipped/${name}`,
    clauses: [tableClauseId(`node:2.1/${name}`)],
    description: `accepts a CredentialProviderConfig whose ${name} breaks its rule of 2.1 (left out where required, or of the wrong type); the other fields are still checked`,
    skip: [`clause:node:2.1/${name}`],
    checks: ['nodeagent-credential-providers', ...edgeChecks(tableClauseId(`node:2.1/${name}`))],
  })),
  ...configFields.map((f) => ({
    name: `type-ignored/${f.name}`,
    clauses: [f.clause],
    description: `accepts a value of the wrong type in ${f.name} (the other fields' types are still checked)`,
    skip: [`type:${f.name}`],
    checks: [FIELD_TYPES, ...edgeChecks(f.clause)],
  })),
  ...nestedMembers.map((f) => ({
    name: `type-ignored/${f.name}`,
    clauses: [f.clause],
    description: `accepts a value of the wrong type in the nested member ${f.name} (the other fields' types are still checked)`,
    skip: [`type:${f.name}`],
    checks: [FIELD_TYPES],
  })),
  ...configFields
    // A field whose edge files include a refused value: its edge check sends one on every seed.
    .filter((f) => f.check !== undefined && !REFUSED_BY_ANOTHER_RULE.has(f.name) && (f.edges ?? []).some((e) => !e.ok))
    .map((f) => ({
      name: `range-ignored/${f.name}`,
      clauses: [f.clause],
      description: `accepts a value of ${f.name} that its rule refuses (its type is still checked)`,
      skip: [`range:${f.name}`],
      checks: [INVALID, ...edgeChecks(f.clause)],
    })),
];
