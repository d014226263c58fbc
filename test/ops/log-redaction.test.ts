// "No secrets in logs" (PRODUCT.md, Quality bars): secrets deeper in a logged object than pino's redaction
// paths reach, or inside text (messages, error causes, a stdio server's stderr, URLs), stay out of every line,
// in both formats, while the fields an operator reads (ids, methods, Redis keys, words) stay readable.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, type LogFormat } from '../../src/logger.js';

/** A logger in `format` and what it has written so far. */
function captured(format: LogFormat, level = 'info') {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.toString();
      done();
    },
  });
  return { logger: createLogger(level, sink, format), out: () => out };
}

const FORMATS = ['json', 'pretty'] as const;

describe('log redaction beyond the fixed paths', () => {
  it.each(FORMATS)('redacts Slack tokens of every kind written into a message or an error (%s)', (format) => {
    const { logger, out } = captured(format);
    // Through a child logger too, as Bolt's lines are written (src/slack/app.ts boltLogger).
    logger.child({ component: 'bolt' }).error(`auth.test refused xoxb-1111-2222-botTokenA1 for T1`);
    logger.warn({ err: new Error('apps.connections.open refused xapp-1-A01-333-appTokenB2') }, 'socket');
    logger.warn({ note: 'user token xoxp-4444-5555-userTokenC3' }, 'user');
    logger.warn({ err: new Error('refresh: xoxe.xoxb-1-rotatingD4 / xoxe-1-refreshE5') }, 'rotation');
    for (const secret of ['botTokenA1', 'appTokenB2', 'userTokenC3', 'rotatingD4', 'refreshE5'])
      expect(out()).not.toContain(secret);
    // The kind of token stays, so an operator still sees which one was refused.
    expect(out()).toContain('xoxb-[redacted]');
    expect(out()).toContain('xapp-[redacted]');
  });

  it.each(FORMATS)(
    "redacts a secret inside an error's cause, which pino folds into message and stack (%s)",
    (format) => {
      const { logger, out } = captured(format);
      const cause = new Error('token endpoint said: invalid refresh token xoxe-1-causeF6');
      logger.error({ err: new Error('refreshing the bot token failed', { cause }) }, 'refresh failed');
      expect(out()).toContain('refreshing the bot token failed');
      expect(out()).not.toContain('causeF6');
    },
  );

  it.each(FORMATS)("redacts an HTTP client error's request headers however deep (%s)", (format) => {
    const { logger, out } = captured(format);
    const err = Object.assign(new Error('Request failed with status code 500'), {
      config: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer eyJhbGciOi.G7sig' } },
      request: { _header: 'POST /mcp HTTP/1.1\r\nauthorization: Bearer opaque-H8-token-value\r\n' },
    });
    logger.warn({ err, server: 'wiki' }, 'MCP request failed');
    expect(out()).toContain('Request failed with status code 500');
    expect(out()).toContain('mcp.example.com');
    expect(out()).not.toContain('G7sig');
    expect(out()).not.toContain('H8-token');
  });

  it.each(FORMATS)(
    "redacts an MCP server's env and headers wherever a logged object holds them (%s)",
    (format) => {
      const { logger, out } = captured(format);
      const config = {
        mcpServers: {
          github: { command: 'npx', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'plain-env-I9' } },
          wiki: { url: 'https://wiki.example.com/mcp', headers: { 'X-API-Key': 'header-key-J10' } },
        },
      };
      logger.info({ config }, 'configuration read');
      logger.info({ servers: [{ name: 'x', auth: { clientSecret: 'client-secret-K11' } }] }, 'servers');
      expect(out()).toContain('npx');
      for (const secret of ['plain-env-I9', 'header-key-J10', 'client-secret-K11'])
        expect(out()).not.toContain(secret);
    },
  );

  it.each(FORMATS)('redacts the password and secret parameters of a URL (%s)', (format) => {
    const { logger, out } = captured(format);
    logger.warn({ url: 'rediss://bot:redis-pw-L12@redis.internal:6380/0' }, 'Redis connection error');
    logger.warn(
      'fetch failed: redirect to https://cdn.example.com/f?X-Amz-Signature=sigM13&a=1 not followed',
    );
    logger.warn({ endpoint: 'https://mcp.example.com/sse?api_key=qkeyN14&team=T1' }, 'SSE error');
    expect(out()).toContain('redis.internal:6380');
    expect(out()).toContain('team=T1');
    for (const secret of ['redis-pw-L12', 'sigM13', 'qkeyN14']) expect(out()).not.toContain(secret);
  });

  it.each(FORMATS)("redacts tokens in a stdio server's stderr line, logged at debug (%s)", (format) => {
    const { logger, out } = captured(format, 'debug');
    logger.debug(
      { server: 'github', stderr: 'using token ghp_0123456789abcdefGHstderr15' },
      'mcp server stderr',
    );
    logger.debug(
      { server: 'api', stderr: 'sending Authorization: Bearer sk-live-0123P16' },
      'mcp server stderr',
    );
    expect(out()).toContain('mcp server stderr');
    expect(out()).not.toContain('GHstderr15');
    expect(out()).not.toContain('sk-live-0123P16');
  });

  it('keeps what an operator reads: ids, methods, Redis keys, words, and valid JSON lines', () => {
    const { logger, out } = captured('json');
    logger.warn(
      {
        questionId: 'q-1',
        method: 'chat.postMessage',
        key: 'elicit-relay:{q}:q-1',
        fix: 'Copy the Bot User OAuth Token (xoxb-…) from Basic Information, the Bearer authentication page',
        hasToken: true,
      },
      'kept',
    );
    const line = JSON.parse(out()) as Record<string, unknown>;
    expect(line).toMatchObject({
      questionId: 'q-1',
      method: 'chat.postMessage',
      key: 'elicit-relay:{q}:q-1',
      fix: 'Copy the Bot User OAuth Token (xoxb-…) from Basic Information, the Bearer authentication page',
      hasToken: true,
      msg: 'kept',
    });
  });
});
