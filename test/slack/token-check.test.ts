// The bot token is checked with auth.test as an awaited start step (src/slack/app.ts): a token Slack refuses
// stops start-up naming SLACK_BOT_TOKEN, a Web API that does not answer (or not as Slack) naming SLACK_API_URL,
// each with exit code 2 like every wrong setting, instead of an unhandled rejection's stack (exit 1).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { freePort, runCli } from '../system/child.js';

/** The bot as a child process against `apiUrl`; resolves with its exit code and stderr. */
function startBot(apiUrl: string, token = 'xoxb-bad') {
  return runCli(
    {
      SLACK_BOT_TOKEN: token,
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: apiUrl,
      REDIS_URL: redisUrl(),
      REDIS_PREFIX: uniquePrefix(),
      PORT: '0',
    },
    [],
    'compiled',
  ).done;
}

/** A Web API that answers every call with `status` and `body`, as Slack does for a refused token. */
async function fakeSlack(status: number, body: object): Promise<{ url: string; server: Server }> {
  const server = createServer((_, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api/`, server };
}

// Each case starts the bot (compiled) up to its Slack step: Redis, the store and the API are opened first.
describe('the bot token, checked at start-up', { timeout: 45_000 }, () => {
  let standin: SlackStandin;
  const servers: Server[] = [];
  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: 'xoxb-the-right-one' });
  });
  afterAll(async () => {
    await standin?.close();
    for (const server of servers) server.close();
  });

  it('names SLACK_BOT_TOKEN when Slack answers invalid_auth', async () => {
    const { code, stderr } = await startBot(standin.apiUrl);
    expect(stderr).toMatch(
      /^elicit-relay: invalid configuration: SLACK_BOT_TOKEN: Slack refused it \(auth\.test: invalid_auth\)\. Copy the Bot User OAuth Token/m,
    );
    expect(stderr).not.toMatch(/WebAPIPlatformError|^\s+at /m);
    expect(stderr).not.toContain('xoxb-bad');
    expect(code).toBe(2);
  });

  it.each(['token_revoked', 'account_inactive', 'not_authed'])(
    'names SLACK_BOT_TOKEN for %s',
    async (error) => {
      const slack = await fakeSlack(200, { ok: false, error });
      servers.push(slack.server);
      const { code, stderr } = await startBot(slack.url);
      expect(stderr).toContain(`SLACK_BOT_TOKEN: Slack refused it (auth.test: ${error})`);
      expect(code).toBe(2);
    },
  );

  it('names SLACK_API_URL when nothing answers there', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/api/`;
    const { code, stderr } = await startBot(closed);
    expect(stderr).toContain(
      `elicit-relay: invalid configuration: SLACK_API_URL: the Slack Web API at ${closed} could not check the bot token`,
    );
    expect(stderr).toContain('unset SLACK_API_URL');
    expect(stderr).not.toMatch(/WebAPIRequestError|^\s+at /m);
    expect(code).toBe(2);
  });

  it('names SLACK_API_URL when what answers is not the Web API', async () => {
    const slack = await fakeSlack(404, { error: 'not found' });
    servers.push(slack.server);
    const { code, stderr } = await startBot(slack.url);
    expect(stderr).toContain('SLACK_API_URL: the Slack Web API at');
    expect(stderr).toContain('(auth.test: http_404)');
    expect(code).toBe(2);
  });
});
