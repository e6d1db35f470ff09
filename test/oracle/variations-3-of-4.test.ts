// Share 3 of the legal variations (see variation-cases.ts for why the cases are split over files).
import { describeVariations } from './variation-cases.ts';

describeVariations(3, 4);
