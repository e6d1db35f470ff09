/**
 * rest:9.3/deprecated-metrics judged on a `/metrics` exposition of a target at release `current`:
 * every metric whose description carries a deprecation notice is in the state the notice's release
 * allows. Hidden metrics (deprecated = current - 3) may be shown by an option the suite cannot see:
 * unspecified. Deleted ones (current - 4 and older) must be gone.
 */
import { fail, pass, rule, unspecified, type Judgement } from '../judgement.ts';
import { deprecationNoticeIn, exposedMetrics, metricVisibility } from './metrics.ts';
import { formatRelease, type Release } from './release.ts';

const C = 'rest:9.3/deprecated-metrics';

export function judgeDeprecatedMetrics(text: string, current: Release): Judgement[] {
  const out: Judgement[] = [];
  for (const m of exposedMetrics(text)) {
    const notice = deprecationNoticeIn(m.help);
    if (!notice) continue;
    const state = metricVisibility(notice.release, current);
    const from = formatRelease(notice.release);
    if (state === 'deleted')
      out.push(
        fail(
          C,
          `${m.name}, deprecated from ${from}, is deleted by ${formatRelease(current)} (hidden at deprecated = current - 3, deleted a release later)`,
          `still exposed: # HELP ${m.name} ${m.help}`,
        ),
      );
    else if (state === 'hidden')
      out.push(
        unspecified(
          C,
          `${m.name}, deprecated from ${from}, is hidden in ${formatRelease(current)} unless shown by the option for hidden metrics`,
          `exposed with ${m.samples} samples`,
        ),
      );
    else if (state === 'deprecated')
      out.push(rule(C, notice.leading, `${m.name}'s description starts with its deprecation notice`, `# HELP ${m.name} ${m.help}`));
    else out.push(unspecified(C, `${m.name} says it is deprecated from ${from}, after the target's ${formatRelease(current)}`, m.help));
  }
  if (out.length === 0) out.push(pass(C, 'no exposed metric is past its deprecation window', 'no deprecation notices'));
  return out;
}

/**
 * rest:4.2.4 on GET /metrics: 200 with the metrics (401/403 never reach here: the check calls those
 * credentials unable to read metrics, not the target wrong).
 *
 *   judgeMetricsAnswer(500) -> fail rest:4.2.4 'GET /metrics answers 200 with the metrics' / 'status 500'
 */
export function judgeMetricsAnswer(status: number): Judgement {
  return rule('rest:4.2.4', status === 200, 'GET /metrics answers 200 with the metrics', `status ${status}`);
}
