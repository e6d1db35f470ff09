export { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from './server.ts';
import { faults as oracleFaults } from './faults.ts';
import { hostileFaults } from './hostile-faults.ts';
import { setupPartialModes } from './setup-partial-modes.ts';
import { familyFaults } from './fault-families.ts';
import type { FaultName } from './faults.ts';
export type { FaultName };
export { hostileFaults, type HostileFault, type HostileFaultName } from './hostile-faults.ts';
export { setupPartialModes, type SetupPartialModeName } from './setup-partial-modes.ts';
/** Every fault `--fault` accepts and `list-faults` prints: the oracle's planted bugs, the hostile targets, the partial modes, then the families. */
export const faults: readonly { readonly name: FaultName; readonly clause: string; readonly description: string }[] = [
  ...oracleFaults,
  ...hostileFaults,
  ...setupPartialModes,
  ...familyFaults,
];
export { variations, type VariationName } from './variations.ts';
export { partialModes, type PartialModeName } from './partial-modes.ts';
