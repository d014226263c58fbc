// Structured JSON logs (pino) with secrets redacted wherever they might appear in a logged object.
import { pino, type Logger } from 'pino';

export type { Logger };

const REDACT = [
  'token',
  'botToken',
  'appToken',
  'signingSecret',
  'clientSecret',
  'stateSecret',
  '*.clientSecret',
  '*.stateSecret',
  '*.token',
  '*.botToken',
  '*.signingSecret',
  '*.appToken',
  'headers.authorization',
  '*.headers.Authorization',
  '*.env',
];

/** Level from LOG_LEVEL (default "info"); logs go to stdout as JSON lines. */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ name: 'elicit-relay', level, redact: { paths: REDACT, censor: '[redacted]' } });
}
