// The Slack side of signing in (issue #20) against the Slack stand-in: the Connect DM, the same message once
// connected, and the replies of `/mcp connect|disconnect`. The Connections here is this test's own (begin
// returns a sign-in for 'tracker', disconnect forgets it), standing for the MCP side's: what is proven is the
// Slack side of the port.
import { beforeAll, describe, expect, it } from 'vitest';
import { webApi } from '@slack/bolt';
import { CONNECT_ACTION } from '../../blocks/index.js';
import {
  SignInError,
  type Connection,
  type Connections,
  type Person,
  type SignInNeeded,
} from '../../src/mcp/index.js';
import type { SlackStandin } from '../../src/standin/index.js';
import { connectReply } from '../../src/slack/listeners/commands/connect.js';
import { Locales } from '../../src/slack/locales.js';
import { SlackSignIn } from '../../src/slack/sign-in.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { standinWithMessages } from './standin-client.js';

const TOKEN = 'xoxb-sign-in-test';
const ALICE: Person = { teamId: 'T0STANDIN', userId: 'U0ALICE' };

/** The authorization page a Connect message is for: its `redirect_uri` is the bot's callback (PUBLIC_URL). */
const AUTHORIZATION_PAGE =
  'https://auth.example/authorize?state=s1&redirect_uri=https%3A%2F%2Fbot.example%2Frelay%2Foauth%2Fmcp%2Fcallback';

class TestConnections implements Pick<Connections, 'begin' | 'disconnect'> {
  readonly connected = new Set<string>(['docs']);
  begin(server: string, person: Person): Promise<SignInNeeded> {
    if (server !== 'tracker')
      return Promise.reject(new SignInError('not_oauth_server', server, 'no sign-in'));
    const authorizationUrl = new URL(AUTHORIZATION_PAGE);
    return Promise.resolve({ server, person, authorizationUrl, scopes: ['mcp'], reason: 'first' });
  }
  start(): ReturnType<Connections['start']> {
    return Promise.reject(new SignInError('state_invalid', 'tracker', 'not used here'));
  }
  disconnect(server: string): Promise<boolean> {
    return Promise.resolve(this.connected.delete(server));
  }
  list(): Promise<Connection[]> {
    return Promise.resolve([]);
  }
  complete(): Promise<{ server: string; person: Person }> {
    return Promise.reject(new SignInError('state_invalid', 'tracker', 'not used here'));
  }
}

let standin: SlackStandin;
let signIn: SlackSignIn;
let dm: string;

const slack = standinWithMessages({ botToken: TOKEN, users: { [ALICE.userId]: { name: 'alice' } } });

beforeAll(async () => {
  standin = slack.standin;
  const client = new webApi.WebClient(TOKEN, { slackApiUrl: standin.apiUrl });
  const clients = singleWorkspace(client);
  const opened = await client.conversations.open({ users: ALICE.userId });
  dm = opened.channel?.id ?? '';
  const deps = { messages: slack.messages, locales: new Locales(clients), dmOf: () => Promise.resolve(dm) };
  signIn = new SlackSignIn(deps);
});

type Block = { type: string; elements?: { action_id?: string; url?: string }[] };

describe('SlackSignIn', () => {
  it("posts the Connect message in the person's DM, its button linking to the bot's start page for the authorization page", async () => {
    await signIn.prompt({
      server: 'tracker',
      person: ALICE,
      authorizationUrl: new URL(AUTHORIZATION_PAGE),
      scopes: ['mcp', 'admin'],
      reason: 'step_up',
    });
    const [message] = standin.messagesIn(dm);
    expect(message?.text).toBe('tracker needs more access for this call.');
    const button = (message?.blocks as Block[]).find((b) => b.type === 'actions')?.elements?.[0];
    expect(button).toMatchObject({
      action_id: CONNECT_ACTION,
      // On the bot's public URL (its path prefix kept), never the authorization server's page itself.
      url: 'https://bot.example/relay/oauth/mcp/start?state=s1',
    });
  });

  it('turns that message into "Connected", without its button, once the sign-in completed', async () => {
    await signIn.connected('tracker', ALICE);
    const messages = standin.messagesIn(dm);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      updates: 1,
      text: expect.stringContaining('Connected to tracker') as string,
    });
    expect((messages[0]?.blocks as Block[]).some((b) => b.type === 'actions')).toBe(false);
  });

  it('posts "Connected" as a new message when the Connect message was posted elsewhere (another replica)', async () => {
    await signIn.connected('docs', ALICE);
    expect(standin.messagesIn(dm).at(-1)?.text).toContain('Connected to docs');
  });
});

describe('/mcp connect and /mcp disconnect', () => {
  const connections = new TestConnections();
  const deps = (): { connections: Connections; prompter: SlackSignIn } => ({ connections, prompter: signIn });
  const reply = (kind: 'connect' | 'disconnect', server: string) =>
    connectReply({ kind, server, person: ALICE, locale: 'en' }, deps());

  it('connect sends a fresh Connect message and says so', async () => {
    const before = standin.messagesIn(dm).length;
    expect(await reply('connect', 'tracker')).toBe(
      'I sent you a private message with a Connect button for `tracker`.',
    );
    expect(standin.messagesIn(dm)).toHaveLength(before + 1);
  });

  it('disconnect forgets the sign-in, and says when there was none', async () => {
    expect(await reply('disconnect', 'docs')).toContain('Disconnected from `docs`');
    expect(await reply('disconnect', 'docs')).toBe('You were not connected to `docs`.');
  });

  it('says a server needs no sign-in, also when no server does', async () => {
    expect(await reply('connect', 'plain')).toBe('`plain` does not need sign-in.');
    const none = await connectReply(
      { kind: 'connect', server: 'tracker', person: ALICE, locale: 'zh-CN' },
      undefined,
    );
    expect(none).toBe('`tracker` 不需要登录。');
  });
});
