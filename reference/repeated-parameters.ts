/**
 * rest:4.3: the table gives each query parameter once; a parameter given twice is a form it does not
 * describe, so what a server makes of it (a refusal, the first value, the last) is recorded as
 * unspecified. One thing holds whichever value it takes: `limit` is the maximum number of items in one
 * page (rest:4.3/limit), so a page answered to `limit=1&limit=2` holds at most two items.
 * Pure: the suite hands over the limits in the order sent, the answer's status and its item count.
 *
 *   judgeRepeatedLimit([1, 2], 200, 1) -> [unspecified rest:4.3 "200, 1 item (as the first value)", pass rest:4.3/limit]
 *   judgeRepeatedLimit([1, 2], 200, 3) -> [unspecified rest:4.3 ..., fail rest:4.3/limit]
 */
import { fail, pass, unspecified, type Judgement } from './judgement.ts';

export const QUERY_TABLE = 'rest:4.3' as const;
export const LIMIT_ROW = 'rest:4.3/limit' as const;

/** Which of the limits sent a page of `items` items agrees with, in words (the collection holds more than either). */
function whichValue(limits: readonly number[], items: number): string {
  if (items === limits[0]) return 'as the first value';
  if (items === limits[limits.length - 1]) return 'as the last value';
  if (items < Math.min(...limits)) return 'fewer than either value';
  return items > Math.max(...limits) ? 'more than either value' : 'between the values';
}

export function judgeRepeatedLimit(limits: readonly number[], status: number, items: number | undefined): Judgement[] {
  const form = `limit given ${limits.length} times (${limits.join(', then ')})`;
  const served = status >= 200 && status <= 299;
  const observed = served
    ? items === undefined
      ? `${status}, no items list`
      : `${status}, ${items} item${items === 1 ? '' : 's'} (${whichValue(limits, items)})`
    : `${status}`;
  const recorded = unspecified(
    QUERY_TABLE,
    `a form the rest:4.3 table does not describe: ${form}; what the server does with it is not shown`,
    observed,
  );
  if (!served || items === undefined) return [recorded];
  const most = Math.max(...limits);
  const expected = `whichever value is taken, a page of at most ${most} items (limit is the maximum per page)`;
  if (items <= most) return [recorded, pass(LIMIT_ROW, expected, observed)];
  return [
    recorded,
    fail(LIMIT_ROW, expected, observed, {
      needs: [
        {
          says: `refused (4xx), or a page of at most ${most} items`,
          test: {
            kind: 'anyOf',
            tests: [
              { kind: 'statusClass', at: 'judged', cls: 4 },
              { kind: 'length', at: 'judged', path: ['items'], atMost: most },
            ],
          },
        },
      ],
    }),
  ];
}
