/**
 * The options table of `docs/controller-daemon-options.md`, generated from the model so the docs cannot
 * drift from it (a test compares the file; `svc-conformance controller-daemon docs` rewrites it).
 */
import { defaultText, flagName, options } from './options.ts';
import { rules } from './rules.ts';
import { gates, gateName } from './gates.ts';
import { knownControllers, offByDefault } from './controllers.ts';

const cell = (s: string) => s.replace(/\|/g, '\\|');

export function optionsMarkdown(): string {
  const lines = [
    '# Controller daemon options',
    '',
    '<!-- Generated from reference/controller-daemon/ by `svc-conformance controller-daemon docs > docs/controller-daemon-options.md`; do not edit. -->',
    '',
    'Every option of the controller daemon as the model knows it (spec node:2.6, node:5, node:8). Where the',
    'naming profiles differ, the svc spelling comes first and the k8s one after a slash. Types of node:8 rows',
    'are not given by the spec; ours are inferred from the default.',
    '',
    '| Option | Type | Default | Clause | Rules |',
    '|---|---|---|---|---|',
  ];
  for (const o of options) {
    const name = o.pattern
      ? '--<vendor>-container-registry-config'
      : [...new Set([flagName(o, 'svc'), flagName(o, 'k8s')])].map((n) => `--${n}`).join(' / ');
    const shorthand = o.shorthand ? `-${o.shorthand}, ` : '';
    const defaults = [...new Set([defaultText(o, 'svc'), defaultText(o, 'k8s')])].filter((d) => d !== undefined);
    const def = defaults.length > 0 ? defaults.map((d) => (d === '' ? '(empty)' : `\`${d}\``)).join(' / ') : (o.defaultNote ?? '');
    const rs = rules
      .filter((r) => r.option === o.name)
      .map(
        (r) =>
          r.rule +
          (r.binding === 'open'
            ? ' (otherwise no effect: refusing or ignoring both allowed)'
            : r.binding === 'main-loop'
              ? ' (may be refused when the control loop starts, after leadership)'
              : ''),
      );
    lines.push(
      `| \`${shorthand}${name}\` | ${o.type}${o.typeFromSpec ? '' : ' (inferred)'}${o.repeatable ? ', repeatable' : ''} | ${cell(def)} | \`${o.clause}\` | ${cell(rs.join('; '))} |`,
    );
  }
  lines.push('', '## Controllers', '', `Known: ${knownControllers.join(', ')}. Off by default: ${[...offByDefault].join(', ')}.`, '');
  lines.push('## Feature gates', '', 'Gates marked * are described by the spec without their name; they carry the upstream name.', '');
  lines.push('| Gate (svc / k8s) | Stage | Default |', '|---|---|---|');
  for (const g of gates)
    lines.push(
      `| ${[...new Set([gateName(g, 'svc'), gateName(g, 'k8s')])].join(' / ')}${g.named ? '' : ' *'} | ${g.stage} | ${g.default} |`,
    );
  return lines.join('\n') + '\n';
}
