// Structured JSON logs (pino) with secrets and message bodies redacted wherever they might appear in a logged
// object.
import { pino, type DestinationStream, type Logger } from 'pino';

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
  // Message bodies: what people answer, what tools are given and return. Logs name methods, ids, sizes and
  // statuses instead; these paths catch a payload passed in a logged object by mistake.
  'body',
  'content',
  'arguments',
  'result',
  '*.body',
  '*.content',
  '*.arguments',
  '*.result',
];

/** Level from LOG_LEVEL (default "info"); logs go to `destination` (default stdout) as JSON lines. */
export function createLogger(
  level = process.env.LOG_LEVEL ?? 'info',
  destination?: DestinationStream,
): Logger {
  const options = { name: 'elicit-relay', level, redact: { paths: REDACT, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
