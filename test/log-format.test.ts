// LOG_FORMAT's default follows the terminal, and readable lines redact what JSON lines redact.
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ConfigError, logFormat } from '../src/config/index.js';
import { createLogger, type LogFormat } from '../src/logger.js';
import { redisUrl } from './setup/context.js';

/** A logger in `format` and what it has written so far. */
function captured(format: LogFormat) {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.toString();
      done();
    },
  });
  return { logger: createLogger('info', sink, format), out: () => out };
}

/** The error ioredis emits when Redis refuses a connection's HELLO ... AUTH (a password rotated away). */
async function refusedHello(password: string): Promise<unknown> {
  const url = new URL(redisUrl());
  [url.username, url.password] = ['elicit-relay-no-such-user', password];
  const client = new Redis(url.toString(), { lazyConnect: true, retryStrategy: () => null });
  const refused = new Promise<unknown>((resolve) => client.once('error', resolve));
  await client.connect().catch(() => undefined);
  client.disconnect();
  return refused;
}

/** The error of a script that fails after being given `answer` as an argument (a finish refused by Redis). */
async function failedScript(answer: string): Promise<unknown> {
  const client = new Redis(redisUrl());
  try {
    return await client
      .eval("return redis.error_reply('ERR refused')", 0, answer)
      .catch((err: unknown) => err);
  } finally {
    client.disconnect();
  }
}

describe('log format', () => {
  it('is pretty on a terminal and JSON otherwise unless LOG_FORMAT says', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({ LOG_FORMAT: '' }, false)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
    expect(() => logFormat({ LOG_FORMAT: 'JSON' }, false)).toThrow(ConfigError);
  });

  it('redacts secrets and answers in readable lines too', () => {
    const { logger, out } = captured('pretty');
    logger.info({ botToken: 'xoxb-secret', content: { pin: '1234' }, questionId: 'q1' }, 'answered');
    expect(out()).toMatch(/INFO: answered\n/);
    expect(out()).toContain('questionId: "q1"');
    expect(out()).not.toContain('xoxb-secret');
    expect(out()).not.toContain('1234');
  });

  it.each(['json', 'pretty'] as const)(
    'names a failed Redis command but not its arguments: a password, an answer (%s)',
    async (format) => {
      const { logger, out } = captured(format);
      logger.warn({ err: await refusedHello('pw-rotated-7c1e') }, 'Redis connection error; retrying');
      logger.warn({ err: await failedScript('{"pin":"4321"}') }, 'finish failed');
      expect(out()).toMatch(/WRONGPASS/);
      expect(out()).toMatch(/hello/);
      expect(out()).toMatch(/eval/);
      expect(out()).not.toContain('pw-rotated-7c1e');
      expect(out()).not.toContain('4321');
    },
  );

  it.each(['json', 'pretty'] as const)(
    "redacts a logged request's Authorization header, as Node names it or not (%s)",
    (format) => {
      const { logger, out } = captured(format);
      logger.warn({ req: { headers: { authorization: 'Bearer er-lower-5e1' } } }, 'request refused');
      logger.warn({ req: { headers: { Authorization: 'Bearer er-upper-9c2' } } }, 'request refused');
      expect(out()).toMatch(/request refused/);
      expect(out()).not.toContain('er-lower-5e1');
      expect(out()).not.toContain('er-upper-9c2');
    },
  );
});
