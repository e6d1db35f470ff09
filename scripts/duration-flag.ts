/** Durations on our own command line: `1500ms`, `2s`, `5m`, `1h`, or combinations like `1m30s`. */
export function parseDuration(text: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let pos = 0;
  if (text.length === 0) return undefined;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) return undefined;
    total += Number(m[1]) * unit[m[2]!]!;
    pos = re.lastIndex;
  }
  return Math.round(total);
}
