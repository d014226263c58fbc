// Sign-in secrets stay secret (issue #20): a whole sign-in at `trace` (the most verbose level), a refresh
// included, with every authorization code, access and refresh token the fixture issues starting with a
// distinctive mark; none may appear in the bot's logs, nor in clear text in any Redis key the run wrote.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECT_ACTION } from '../../blocks/index.js';
import { redisUrl } from '../setup/context.js';
import { captureLogs, type CapturedLogs } from '../slack/log-capture.js';
import { startOAuthServer, type OAuthServer } from '../../src/sandbox/oauth/index.js';
import { startProtectedServer, type ProtectedServer } from '../fixtures/protected-server.js';
import { startHarness, type Harness } from './harness.js';
import { connectLink, openConnectLink } from './sign-in-support.js';

const MARK = 'planted-secret-kestrel-';
const PUBLIC_URL = 'https://relay.example.com';

/** Every value under `prefix`, whatever its type, as text. */
async function everyValueUnder(prefix: string): Promise<string[]> {
  const redis = new Redis(redisUrl());
  const texts: string[] = [];
  try {
    for await (const batch of redis.scanStream({ match: `${prefix}:*`, count: 500 })) {
      for (const key of batch as string[]) {
        const type = await redis.type(key);
        const value =
          type === 'string'
            ? await redis.get(key)
            : type === 'hash'
              ? await redis.hgetall(key)
              : type === 'list'
                ? await redis.lrange(key, 0, -1)
                : type === 'set'
                  ? await redis.smembers(key)
                  : type === 'zset'
                    ? await redis.zrange(key, '0', '-1')
                    : type === 'stream'
                      ? await redis.xrange(key, '-', '+')
                      : null;
        texts.push(`${key} ${JSON.stringify(value)}`);
      }
    }
  } finally {
    await redis.quit();
  }
  return texts;
}

describe('sign-in secrets', () => {
  let oauth: OAuthServer;
  let tracker: ProtectedServer;
  let h: Harness;
  let logs: CapturedLogs;

  beforeAll(async () => {
    oauth = await startOAuthServer({ secretPrefix: MARK });
    tracker = await startProtectedServer(oauth);
    logs = captureLogs('trace');
    h = await startHarness({
      logger: logs.logger,
      env: {
        ELICIT_RELAY_TOKEN_KEY: Buffer.alloc(32, 5).toString('base64'),
        ELICIT_RELAY_PUBLIC_URL: PUBLIC_URL,
      },
      servers: { tracker: { url: tracker.url.href, auth: { mode: 'oauth' } } },
    });
  });
  afterAll(async () => {
    await h.close();
    await tracker.close();
    await oauth.close();
  });

  const resultFor = (subject: string) =>
    h.standin.waitForCall('chat.postMessage', (c) => JSON.stringify(c.args.blocks).includes(subject), 30_000);

  it('logs no code or token at trace level and keeps none in clear text in Redis', async () => {
    await h.driver.slashCommand({ userId: 'UANN', command: '/mcp', text: 'run tracker whoami {}' });
    const prompt = await h.standin.waitForCall(
      'chat.postMessage',
      (c) => JSON.stringify(c.args.blocks).includes(CONNECT_ACTION),
      30_000,
    );
    const bot = `http://127.0.0.1:${h.relay.port}`;
    const authorization = await openConnectLink(connectLink(prompt), bot);
    const redirect = await oauth.decide(authorization, 'ann@example.com');
    expect(redirect.searchParams.get('code')).toContain(MARK);
    const landed = await fetch(new URL(`${redirect.pathname}${redirect.search}`, bot));
    expect(landed.status).toBe(200);
    expect(await landed.text()).not.toContain(MARK);
    const first = await resultFor('ann@example.com');
    // A refresh writes new tokens.
    oauth.expireAccessTokens();
    await h.driver.slashCommand({ userId: 'UANN', command: '/mcp', text: 'run tracker whoami {}' });
    await h.standin.waitForCall(
      'chat.postMessage',
      (c) => c !== first && JSON.stringify(c.args.blocks).includes('ann@example.com'),
      30_000,
    );
    expect(oauth.tokenRequests.map((r) => r.grantType)).toContain('refresh_token');

    expect(logs.lines.length).toBeGreaterThan(0);
    expect(logs.lines.map((line) => JSON.stringify(line)).filter((text) => text.includes(MARK))).toEqual([]);
    const stored = await everyValueUnder(h.prefix);
    expect(stored.some((text) => text.includes(':auth:grant:'))).toBe(true);
    expect(stored.filter((text) => text.includes(MARK))).toEqual([]);
    expect(h.standin.calls.filter((c) => JSON.stringify(c.args).includes(MARK))).toEqual([]);
  });
});
