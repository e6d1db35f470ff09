// Generator contracts of the k8s profile's node-agent config files (nodeagent-contracts.ts).
import { nodeagentGeneratorContracts } from './nodeagent-contracts.ts';

nodeagentGeneratorContracts('k8s');
