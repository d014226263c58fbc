// LOG_FORMAT and LOG_LEVEL, read before anything else starts (the logger is the first thing the entry point
// builds, and pino throws a bare Error with a stack for a level it does not know).
import type { LevelWithSilent } from 'pino';
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

/** pino's level names, most severe first; `silent` logs nothing. */
const LEVELS = [
  'fatal',
  'error',
  'warn',
  'info',
  'debug',
  'trace',
  'silent',
] as const satisfies readonly LevelWithSilent[];

/** LOG_LEVEL, one of pino's level names; unset or empty (Compose passes unset variables as empty): `info`. */
export function logLevel(env: Readonly<Record<string, string | undefined>>): LevelWithSilent {
  const raw = env.LOG_LEVEL;
  if (raw === undefined || raw === '') return 'info';
  const level = LEVELS.find((name) => name === raw);
  if (level !== undefined) return level;
  throw new ConfigError(
    'LOG_LEVEL',
    `"${raw}" is not a log level`,
    `Use one of: ${LEVELS.join(', ')}, or leave it unset for info.`,
  );
}
