// Renders result rows as a Markdown table (readable on stdout and pasteable into BENCHMARKS.md).
import type { Row } from './stats.js';

const fmt = (v: number | undefined, digits = 1): string =>
  v === undefined || Number.isNaN(v)
    ? ''
    : v >= 1000
      ? Math.round(v).toLocaleString('en-US')
      : v.toFixed(digits);

export function renderTable(rows: Row[]): string {
  const head = [
    'Group',
    'Benchmark',
    'n',
    'unit',
    'p50',
    'p95',
    'p99',
    'max',
    'ops/s',
    '× floor p50',
    'note',
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of rows) {
    const cells = [
      r.group,
      r.name,
      String(r.n),
      r.unit ?? 'µs',
      fmt(r.p50),
      fmt(r.p95),
      fmt(r.p99),
      fmt(r.max),
      fmt(r.opsPerSec, 0),
      r.xFloor === undefined ? '' : `${r.xFloor.toFixed(1)}×`,
      r.note ?? '',
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
