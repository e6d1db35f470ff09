// The planted faults that give passed clauses a fault failing them (targets/api-server/clause-faults.ts
// and the per-row families of fault-families.ts),
// each caught by its clause with a short counterexample, as the table's own faults are (fault-cases.ts).
import { clauseFaults, ownClauseFaults } from '../../targets/api-server/clause-faults.ts';
import { familyFaults } from '../../targets/api-server/fault-families.ts';
import { describeFaults } from './fault-cases.ts';

// The faults of ownClauseFaults are held to their own clause (the figure of `npm run mutation -- --passed`).
describeFaults(1, 1, [...clauseFaults, ...familyFaults], new Set(ownClauseFaults.map((f) => f.name)));
