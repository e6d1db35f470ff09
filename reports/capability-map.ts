/**
 * The capability map as the reports open with it: per feature area, what the target serves
 * (✓), does not serve, or serves wrongly, with the request that showed it; and the verdict line's
 * "N features not served, M clauses blocked by them". Pure functions of RunResult.
 */
import type { CapabilityEntry, RunResult } from '../runner/results.ts';
import { html } from './escape.ts';

const STATE_TEXT: Record<CapabilityEntry['state'], string> = {
  served: '✓ served',
  notServed: 'not served',
  servedWrongly: 'served wrongly',
  unknown: 'not asked',
};

/** "2 features not served, 57 clauses blocked by them"; undefined when the run probed nothing or all is served. */
export function capabilityLine(run: Pick<RunResult, 'capabilities' | 'totals'>): string | undefined {
  const absent = (run.capabilities ?? []).filter((e) => e.state === 'notServed');
  if (absent.length === 0) return undefined;
  return `${absent.length} feature${absent.length === 1 ? '' : 's'} not served (${absent.map((e) => e.feature).join(', ')}), ${run.totals.blocked} clause${run.totals.blocked === 1 ? '' : 's'} blocked by them`;
}

/** The map's entries grouped by area, in the map's order. */
export function byArea(entries: readonly CapabilityEntry[]): [string, CapabilityEntry[]][] {
  const out = new Map<string, CapabilityEntry[]>();
  for (const e of entries) out.set(e.area, [...(out.get(e.area) ?? []), e]);
  return [...out];
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** Markdown: one row per feature, grouped by area; served features without evidence noise. */
export function capabilityMapMarkdown(entries: readonly CapabilityEntry[]): string[] {
  const lines = ['### Capability map', '', '| area | feature | served | clause | what showed it |', '|---|---|---|---|---|'];
  for (const [area, list] of byArea(entries)) {
    for (const e of list) {
      const blocked = e.blocks.length > 0 ? `; blocks ${e.blocks.length} check${e.blocks.length === 1 ? '' : 's'}` : '';
      lines.push(
        `| ${cell(area)} | ${cell(e.title)} | ${STATE_TEXT[e.state]} | \`${cell(e.clause)}\`${e.required ? '' : ' (optional)'} | ${cell(e.evidence)}${blocked} |`,
      );
    }
  }
  return lines;
}

/** Terminal: one line per feature that is not simply served. */
export function capabilityMapText(entries: readonly CapabilityEntry[]): string[] {
  const odd = entries.filter((e) => e.state !== 'served');
  if (odd.length === 0) return entries.length === 0 ? [] : [`Capability map: all ${entries.length} features served`];
  return [
    `Capability map: ${entries.length - odd.length} of ${entries.length} features served`,
    ...odd.map(
      (e) =>
        `  ${STATE_TEXT[e.state]}: ${e.title} (${e.clause}${e.required ? '' : ', optional'}): ${e.evidence}${e.blocks.length > 0 ? `; ${e.blocks.length} checks blocked` : ''}`,
    ),
  ];
}

/** HTML: the section the page opens with. */
export function capabilityMapHtml(entries: readonly CapabilityEntry[]): string {
  if (entries.length === 0) return '';
  const rows = byArea(entries).flatMap(([area, list]) =>
    list.map(
      (e, i) =>
        `<tr class="cap-${html(e.state)}">${i === 0 ? `<td rowspan="${list.length}">${html(area)}</td>` : ''}<td>${html(e.title)}</td><td class="n">${html(STATE_TEXT[e.state])}</td><td><code>${html(e.clause)}</code>${e.required ? '' : ' (optional)'}</td><td>${html(e.evidence)}${e.blocks.length > 0 ? `<br>blocks: ${e.blocks.map((b) => `<code>${html(b)}</code>`).join(' ')}` : ''}</td></tr>`,
    ),
  );
  return [
    '<section id="capabilities"><h2>Capability map</h2>',
    '<p>What the probe before the checks found the target serves. A required feature not served fails its clause once; an optional one is <i>not served</i>; the clauses of the checks that need it are <i>blocked</i>, not judged.</p>',
    '<table class="caps"><tr><th>area</th><th>feature</th><th>served</th><th>clause</th><th>what showed it</th></tr>',
    ...rows,
    '</table></section>',
  ].join('\n');
}
