// Durations in config: a number of milliseconds or a string such as "90s", "10m", "2h", "1d", "1500ms".
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses a duration to milliseconds; returns undefined when the value is not a duration. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(value);
  if (!match?.[1]) return undefined;
  return Math.round(Number(match[1]) * (UNIT_MS[match[2] ?? 'ms'] ?? 1));
}
