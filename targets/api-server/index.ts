export { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from './server.ts';
export { faults, type FaultName } from './faults.ts';
export { variations, type VariationName } from './variations.ts';
