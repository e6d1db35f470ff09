// Share 1 of the planted faults (see fault-cases.ts for why the cases are split over files).
import { describeFaults } from './fault-cases.ts';

describeFaults(1, 2);
