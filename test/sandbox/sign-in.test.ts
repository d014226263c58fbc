// The sandbox's tracker (a server that needs sign-in) through the page's API, on a Redis prefix an earlier
// sandbox run left a grant under: that run's key is gone with it, so its sealed grant can never open again and
// the vault drops it (src/mcp/auth/vault.ts), as it does in the bot for a key rotated away without _PREVIOUS.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECT_ACTION } from '../../blocks/index.js';
import { createLogger } from '../../src/logger.js';
import { Sealer } from '../../src/mcp/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { SignInBrowser } from '../support/sign-in-browser.js';
import { sandboxClient, type SandboxClient } from './client.js';

const ADA = 'U0ADA';

describe('the sandbox tracker after a restart on the same Redis prefix', () => {
  const prefix = uniquePrefix();
  // Where the bot keeps Ada's grant for the tracker (one workspace: no team id in the key).
  const earlierGrant = `${prefix}:auth:grant:tracker::${ADA}`;
  let redis: Redis;
  let sandbox: RunningSandbox;
  let api: SandboxClient;

  beforeAll(async () => {
    redis = new Redis(redisUrl());
    const earlierRun = new Sealer(randomBytes(32));
    const record = { tokens: { access_token: 'earlier-run', token_type: 'Bearer' } };
    await redis.set(earlierGrant, earlierRun.seal(JSON.stringify(record), earlierGrant));
    sandbox = await startSandbox({
      port: 0,
      redisUrl: redisUrl(),
      redisPrefix: prefix,
      logger: createLogger('silent'),
    });
    api = sandboxClient(sandbox.url);
  });
  afterAll(async () => {
    await sandbox?.stop();
    await deleteUnder(prefix);
    redis.disconnect();
  });

  it('asks Ada to connect again instead of failing on the grant an earlier run sealed with its own key', async () => {
    const sent = await api.post('/api/command', { user: ADA, text: '/mcp run tracker hello {}' });
    expect(sent.json.status).toBe(200);
    const prompt = await api.until(ADA, (s) => s.timeline.find((m) => m.kind === 'message'));
    expect(JSON.stringify(prompt.blocks)).toContain(CONNECT_ACTION);
    expect(prompt.text).toContain('tracker');
    const link = /"url":"([^"]+)"/.exec(JSON.stringify(prompt.blocks))?.[1] ?? '';
    // The Connect link is the bot's start page at the page's address (passed on to the bot); Ada signs in with
    // Slack (the stand-in's page) and the bot, seeing the link is hers, sends her on to the authorization server.
    expect(new URL(link).origin + new URL(link).pathname).toBe(
      `${new URL(sandbox.url).origin}/oauth/mcp/start`,
    );
    const authorization = await new SignInBrowser({ userId: ADA }).open(link);
    expect(authorization.origin).toBe(new URL(sandbox.signIn.issuer).origin);
    expect(authorization.searchParams.get('redirect_uri')).toBe(
      `${new URL(sandbox.url).origin}/oauth/mcp/callback`,
    );
  });
});
