// Generator contracts of the svc profile's node-agent config files (nodeagent-contracts.ts).
import { nodeagentGeneratorContracts } from './nodeagent-contracts.ts';

nodeagentGeneratorContracts('svc');
