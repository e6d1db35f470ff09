// Share 2 of the planted faults (see fault-cases.ts for why the cases are split over files).
import { describeFaults } from './fault-cases.ts';

describeFaults(2, 2);
