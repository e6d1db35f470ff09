/** A counterexample as plain text, for the formatters that have no richer layout (JUnit bodies). */
import type { Counterexample } from '../runner/results.ts';
import { diffText } from './value-diff.ts';
import { answerLines, needLines } from './answer-diff.ts';

export function counterexampleText(cx: Counterexample): string {
  const lines = [
    `check:    ${cx.check}`,
    `expected: ${indentRest(cx.expected, 10)}`,
    `observed: ${indentRest(cx.observed, 10)}`,
    `requests: ${cx.requestCount}`,
    `replay:   ${cx.replay}`,
  ];
  if (cx.diff !== undefined && diffText(cx.diff).length > 0) lines.push('difference:', ...diffText(cx.diff).map((l) => `  ${l}`));
  const needed = [...needLines(cx), ...answerLines(cx)];
  if (needed.length > 0) lines.push('answers:', ...needed.map((l) => `  ${l}`));
  if (cx.steps.length > 0) lines.push('steps:', ...cx.steps.map((s, i) => `  ${i + 1}. ${s}`));
  if (cx.curl.trim() !== '') lines.push('curl script:', cx.curl.trimEnd());
  return lines.join('\n');
}

/** Keeps multi-line values aligned under their label. */
export function indentRest(text: string, width: number): string {
  return text.split('\n').join(`\n${' '.repeat(width)}`);
}

/** First line, shortened: for attributes and one-line summaries. */
export function oneLine(text: string, max = 200): string {
  const first = text.split('\n')[0] ?? '';
  const more = first !== text || first.length > max;
  return more ? `${first.slice(0, max)}…` : first;
}
