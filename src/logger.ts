// Structured logs (pino) with secrets and message bodies redacted wherever they might appear in a logged
// object: JSON lines for log collectors, or readable lines (pino-pretty) for a person at a terminal. pino's
// paths below redact known fields; each written line then goes through redactLine (log-redaction.ts), which
// finds secrets by shape in any text and by field name at any depth.
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { CENSOR, redactLine } from './log-redaction.js';

export type { Logger };

/** `json`: one JSON object per line; `pretty`: time, level, message and fields on one readable line. */
export type LogFormat = 'json' | 'pretty';

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
  // Node gives request headers in lower case; a headers object built by hand may keep the capital.
  'headers.authorization',
  'headers.Authorization',
  '*.headers.authorization',
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
  // A failed Redis command's error carries its arguments (ioredis: err.command.args): the password of a HELLO or
  // AUTH sent on reconnect, a finish script's answer. The command's name stays.
  'command.args',
  '*.command.args',
];

/**
 * Level from LOG_LEVEL (default "info", also when empty; the entry point checks it first: config/log-format.ts);
 * logs go to `destination` (default stdout) as JSON lines, or as readable lines with `format` 'pretty'
 * (redaction applies before either).
 */
export function createLogger(
  level = process.env.LOG_LEVEL || 'info',
  destination?: DestinationStream,
  format: LogFormat = 'json',
): Logger {
  const options = {
    name: 'elicit-relay',
    level,
    redact: { paths: REDACT, censor: CENSOR },
    // On the line as written, so the pretty format (which reads these lines) gets it redacted too.
    hooks: { streamWrite: redactLine },
  };
  if (format === 'pretty') return pino(options, readable(destination));
  return destination ? pino(options, destination) : pino(options);
}

/**
 * pino-pretty written synchronously, so a line is out before an exit (pino's own JSON stdout is asynchronous,
 * sonic-boom, and flushed by pino at exit).
 */
function readable(destination?: DestinationStream): DestinationStream {
  return pretty({
    sync: true,
    colorize: destination === undefined && process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,name',
    ...(destination ? { destination } : {}),
  });
}
