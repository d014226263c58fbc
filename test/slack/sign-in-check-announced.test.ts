// Start-up tells the operator about Sign in with Slack at Connect links: with the app's client credentials, the exact
// redirect URL the Slack app must list (forgotten, everyone who clicks Sign in with Slack lands on Slack's own error
// page and the bot logs nothing); without them, that a Connect link only names its owner and how to turn the check on.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Connections } from '../../src/mcp/index.js';
import type { ToolRunner } from '../../src/relay/sources/mcp.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { startSlackPart, type RunningSlackPart } from './slack-part.js';

const BOT_TOKEN = 'xoxb-sign-in-check-announced';
const PUBLIC_URL = 'https://relay.example.com/bot';
/** pino's number for an info line. */
const INFO = 30;

/** No tool and no sign-in is used here: the lines are logged as the part is built. */
const refused = (): Promise<never> => Promise.reject(new Error('not used by this test'));
const tools: ToolRunner = {
  serverNames: () => [],
  status: () => [],
  listTools: refused,
  refusedTools: refused,
  callTool: refused,
  warm: () => undefined,
};
const connections: Connections = {
  begin: refused,
  start: refused,
  complete: refused,
  list: refused,
  disconnect: refused,
};

describe('the identity check at start-up', () => {
  let standin: SlackStandin;
  let part: RunningSlackPart | undefined;

  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
  });
  afterEach(async () => {
    await part?.close();
    part = undefined;
  });
  afterAll(async () => {
    await standin.close();
  });

  const checkLines = (running: RunningSlackPart): Record<string, unknown>[] =>
    running.logs.lines.filter((line) => line.identityCheck !== undefined);

  it('with the client credentials names the exact redirect URL to register, once', async () => {
    const signInWithSlack = { clientId: 'client-1', clientSecret: 'secret-1' };
    part = await startSlackPart({
      standin,
      botToken: BOT_TOKEN,
      tools,
      signIn: { connections, publicUrl: PUBLIC_URL, signInWithSlack },
    });
    const lines = checkLines(part);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: INFO,
      identityCheck: 'on',
      redirectUrl: `${PUBLIC_URL}/oauth/mcp/slack-identity`,
    });
    expect(line?.msg).toContain(`Redirect URLs`);
    expect(line?.msg).toContain(`${PUBLIC_URL}/oauth/mcp/slack-identity`);
  });

  it('without them says a Connect link only names its owner and how to turn the check on, once', async () => {
    part = await startSlackPart({
      standin,
      botToken: BOT_TOKEN,
      tools,
      signIn: { connections, publicUrl: PUBLIC_URL },
    });
    const lines = checkLines(part);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({ level: INFO, identityCheck: 'off' });
    expect(line?.msg).toContain('only names its owner');
    expect(line?.msg).toContain('SLACK_CLIENT_ID and SLACK_CLIENT_SECRET');
  });

  it('says nothing when no server needs sign-in', async () => {
    part = await startSlackPart({ standin, botToken: BOT_TOKEN, tools });
    expect(checkLines(part)).toEqual([]);
  });
});
