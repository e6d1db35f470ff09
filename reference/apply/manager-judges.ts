/**
 * Judges of what a write carries about its managers: an apply body's own managedFields (rest:4.7.2)
 * and the manager a write without a fieldManager is recorded under (rest:4.3 fieldManager).
 */
import { pass, rule, type Judgement } from '../judgement.ts';
import { isRecord } from '../objects.ts';
import { apply, type ConflictOutcome, type WriteOutcome } from './apply.ts';
import { decodeManagedFields, isManagedFieldsError } from './managed.ts';
import type { Schema } from './schema.ts';
import { expectedOf, judgeWrite, type Expected } from './judge.ts';

/**
 * rest:4.7.2: an apply body must not carry managedFields. Refusing it (4xx) is right; a target that
 * accepts it must not adopt them, so its answer is judged against the model's outcome of the same
 * apply, the body's managedFields ignored (`model`, computed only then).
 *
 *   judgeManagedFieldsInBody(422, json, model, schema, 'v1') -> [pass rest:4.7.2]
 */
export function judgeManagedFieldsInBody(
  status: number,
  json: unknown,
  model: () => WriteOutcome | ConflictOutcome,
  schema: Schema,
  apiVersion: string,
): Judgement[] {
  if (status >= 400 && status < 500)
    return [pass('rest:4.7.2', 'the body is refused, or its managedFields are not adopted', `refused (${status})`)];
  const m = model();
  const expected: Expected = m.kind === 'written' ? expectedOf(m) : { kind: 'conflict', detail: 'conflict' };
  return judgeWrite(expected, status, json, schema, apiVersion, ['rest:4.7.2']);
}

/**
 * judgeManagedFieldsInBody with the model's outcome made from the apply that was sent (the live
 * object and ownership before it, the intent with its managedFields, the manager): plain inputs, so
 * the run's record can judge it again.
 */
export function judgeManagedFieldsInBodyOf(status: number, json: unknown, sent: Parameters<typeof apply>[0]): Judgement[] {
  return judgeManagedFieldsInBody(status, json, () => apply(sent), sent.schema, sent.apiVersion);
}

/**
 * rest:4.3 fieldManager: a non-apply write sent without one is recorded under a manager named after
 * the user agent (a prefix of it, as upstream cuts it): an Update entry other than the creator's.
 * Also returns that manager, which the caller's model then writes as.
 *
 *   judgeDefaultManager('tool/1.0', 200, { metadata: { managedFields: [{ manager: 'tool', operation: 'Update', ... }] } })
 *     -> { judgements: [pass rest:4.3/fieldManager], manager: 'tool' }
 */
export function judgeDefaultManager(
  userAgent: string,
  status: number,
  json: unknown,
): { judgements: Judgement[]; manager: string | undefined } {
  const md = isRecord(json) && isRecord(json['metadata']) ? json['metadata'] : {};
  const decoded = decodeManagedFields(md['managedFields'] ?? []);
  const learned = isManagedFieldsError(decoded)
    ? undefined
    : decoded.find((e) => e.operation === 'Update' && e.manager !== '' && e.manager !== 'creator' && userAgent.startsWith(e.manager));
  const managers = isManagedFieldsError(decoded) ? decoded.message : decoded.map((e) => `${e.manager}/${e.operation}`).join(', ');
  return {
    judgements: [
      rule(
        'rest:4.3/fieldManager',
        status === 200 && learned !== undefined,
        `an Update entry named after the user agent ${JSON.stringify(userAgent)}`,
        `status ${status}, managers ${managers}`,
      ),
    ],
    manager: learned?.manager,
  };
}
