/** Server-side apply and field ownership (rest:2.6, rest:3.2, rest:4.7): the model's public surface. */
export * from './path.ts';
export { FieldSet } from './set.ts';
export { encodeFieldsV1, decodeFieldsV1, isFieldsV1Error, type FieldsV1Error } from './fieldsv1.ts';
export * from './schema.ts';
export {
  toFieldSet,
  compare,
  merge,
  removeItems,
  ensureNamedFieldsAreMembers,
  reconcileWithSchema,
  sameValue,
  InvalidObject,
  type Comparison,
} from './typed.ts';
export * from './managed.ts';
export * from './apply.ts';
export { mergePatch } from './merge-patch.ts';
export { jsonPatch, type JsonPatchOutcome } from './json-patch.ts';
export {
  fixtureGroup,
  fixtureResource,
  fixtureOpenApi,
  fixtureSchema,
  FIXTURE_FIELDS,
  crdResource,
  fixtureCrd,
  schemaOfCrd,
} from './fixture-type.ts';
export {
  judgeWrite,
  judgeState,
  alignedExpectation,
  projected,
  expectedOf,
  emptiedListTags,
  managedFieldsWriteTags,
  type Expected,
  type WriteTags,
} from './judge.ts';
export { judgeManagedFieldsInBody, judgeManagedFieldsInBodyOf, judgeDefaultManager } from './manager-judges.ts';
export { isHollow, hollowMismatch, adoptHollowForm, withoutHollow, atOrBelow, hollowForNull } from './hollow.ts';
export { schemaChangeResource, schemaChangeVersions, schemaChangeCrd, mapTypeOwnedIn } from './schema-change-fixture.ts';
