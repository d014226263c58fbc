// Reads Prometheus text exposition (what GET /metrics serves) into samples, for assertions on series.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const [, name = '', labelText = '', value = ''] = match;
    const labels = Object.fromEntries([...labelText.matchAll(LABEL)].map(([, k = '', v = '']) => [k, v]));
    samples.push({ name, labels, value: Number(value) });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when there is none. */
export function valueOf(
  samples: Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

/** Metric family names declared by # TYPE lines (histograms expose _bucket, _sum and _count under theirs). */
export function familyNames(text: string): Set<string> {
  return new Set([...text.matchAll(/^# TYPE (\S+) \S+$/gm)].map(([, name = '']) => name));
}

/** Series names a PromQL expression reads (this bot's, and Node's process metrics). */
export function seriesNamesIn(expr: string): string[] {
  return [...expr.matchAll(/\b(?:elicit_relay|process|nodejs)_[a-z0-9_]+\b/g)].map(([name]) => name);
}

/** True when `name` is a family of `families`, or a histogram's _bucket, _sum or _count series of one. */
export function isExported(name: string, families: Set<string>): boolean {
  return families.has(name) || families.has(name.replace(/_(?:bucket|sum|count)$/, ''));
}
