// Clauses and properties live in suites/checks; this file only names the suite for vitest.
import { defineSuite } from './define-suite.ts';

defineSuite('rest-scale');
