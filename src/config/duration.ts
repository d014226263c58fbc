// Durations in config: a number of milliseconds or a string such as "90s", "10m", "2h", "1d", "1500ms", or
// several units largest first as Go and Kubernetes write them ("1h30m", "2m 30s").
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** Units from largest to smallest: a compound duration names each at most once, in this order. */
const ORDER = ['d', 'h', 'm', 's', 'ms'];
const PART = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*/y;

/** Parses a duration to milliseconds; returns undefined when the value is not a duration. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const bare = /^\s*(\d+(?:\.\d+)?)\s*$/.exec(value);
  if (bare?.[1]) return Math.round(Number(bare[1]));
  return compound(value.trim());
}

/** "1h30m": each part a number and a unit, units strictly decreasing; undefined otherwise. */
function compound(text: string): number | undefined {
  let ms = 0;
  let last = -1;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const at = PART.lastIndex;
    const part = PART.exec(text);
    const rank = ORDER.indexOf(part?.[2] ?? '');
    if (!part?.[1] || rank <= last || PART.lastIndex === at) return undefined;
    ms += Number(part[1]) * (UNIT_MS[part[2] ?? ''] ?? 0);
    last = rank;
  }
  return last === -1 ? undefined : Math.round(ms);
}
