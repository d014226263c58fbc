// LOG_FORMAT, read before anything else starts (the logger is the first thing the entry point builds).
import type { LogFormat } from '../logger.js';
import { ConfigError } from './error.js';

/** LOG_FORMAT `json` or `pretty`; unset or empty: `pretty` when stdout is a terminal, else `json`. */
export function logFormat(
  env: Readonly<Record<string, string | undefined>>,
  stdoutIsTty: boolean,
): LogFormat {
  const raw = env.LOG_FORMAT;
  if (raw === undefined || raw === '') return stdoutIsTty ? 'pretty' : 'json';
  if (raw === 'json' || raw === 'pretty') return raw;
  throw new ConfigError(
    'LOG_FORMAT',
    `"${raw}" is not a log format`,
    'Use json (one JSON object per line) or pretty (readable lines), or leave it unset: pretty on a terminal, JSON otherwise',
  );
}
