/** One section of a spec document as text: what spec-text.ts (generated) holds and clause-text.ts quotes from. */
export interface SpecSection {
  readonly doc: 'rest' | 'node';
  readonly section: string;
  readonly title: string;
  readonly lines: readonly string[];
}
