// What the rbac tests import: the model, and the reference server's request reader (a target file
// imported by a test only, so the model's tests see the attributes the server decides on).
export * from '../../reference/rbac.ts';
export { attributesOf as attributes } from '../../targets/api-server/authz.ts';
