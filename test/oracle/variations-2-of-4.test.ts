// Share 2 of the legal variations (see variation-cases.ts for why the cases are split over files).
import { describeVariations } from './variation-cases.ts';

describeVariations(2, 4);
