// The Slack side as the bot composes it (createSlack, slack-part.ts) with the real MCP sign-in behind it: the
// sandbox's authorization server, the protected tracker, VaultConnections over the vault in the run's Redis (the
// shared auth fixture's prefix, deleted afterwards), and Slack's stand-in. A person's Connect messages are posted
// by the part's prompter; their browser's callback is sent to the part's own HTTP server; time, for the links'
// expiry and its sweep, is a stepped clock the test moves.
import type { Clock } from '../../src/clock.js';
import { CALLBACK_PATH, type Person, type SignInNeeded } from '../../src/mcp/index.js';
import type { ToolRunner } from '../../src/relay/sources/mcp.js';
import type { PostedMessage } from '../../src/standin/store.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { steppedClock, type SteppedClock } from '../support/stepped-clock.js';
import { SERVER, startAuthFixture, type AuthFixture } from '../mcp/auth/support.js';
import { startSlackPart, type RunningSlackPart } from './slack-part.js';

const BOT_TOKEN = 'xoxb-connect-messages';
export const TEAM = 'T0STANDIN';
export const SUBJECT = 'ann@example.com';

/** Nothing is run here: only the sign-in's messages and pages. */
const unused = (): Promise<never> => Promise.reject(new Error('not used by this test'));
const tools: ToolRunner = {
  serverNames: () => [SERVER],
  status: () => [],
  listTools: unused,
  refusedTools: unused,
  callTool: unused,
  warm: () => undefined,
};

export interface ConnectMessages {
  fixture: AuthFixture;
  standin: SlackStandin;
  part: RunningSlackPart;
  clock: SteppedClock;
  /** A new Connect link for `person` (its authorization request made), not posted. */
  link(person: Person): Promise<SignInNeeded>;
  /** Posts `need`'s Connect message through the part's prompter; resolves with it once noted. */
  prompt(need: SignInNeeded): Promise<PostedMessage>;
  /** The person's browser at the authorization server (`decision`), then at the part's callback: its page. */
  signIn(need: SignInNeeded, decision: 'allow' | 'deny'): Promise<Response>;
  /** The part's callback with `query` as the browser brings it. */
  callback(query: URLSearchParams): Promise<Response>;
  /** The messages in the person's DM, as they read now. */
  dm(person: Person): PostedMessage[];
  close(): Promise<void>;
}

/** Starts everything for the people `users` (user id → their Slack language). */
export async function startConnectMessages(users: Record<string, string>): Promise<ConnectMessages> {
  const fixture = await startAuthFixture();
  const { connections } = await fixture.replica();
  const named = Object.fromEntries(Object.entries(users).map(([id, locale]) => [id, { name: id, locale }]));
  const standin = await startSlackStandin({ botToken: BOT_TOKEN, users: named });
  const clock = steppedClock();
  const partClock: Clock = { now: clock.now, schedule: clock.schedule, random: () => 0.5 };
  const part = await startSlackPart({
    standin,
    botToken: BOT_TOKEN,
    tools,
    clock: partClock,
    signIn: { connections, publicUrl: 'https://bot.example.com' },
  });
  const prompter = part.slack.signIn;
  if (prompter === undefined) throw new Error('the part has no sign-in prompter');
  const callback = (query: URLSearchParams): Promise<Response> =>
    fetch(`http://127.0.0.1:${part.port}${CALLBACK_PATH}?${query.toString()}`);
  const dm = (person: Person): PostedMessage[] => standin.messagesIn(standin.dmChannelOf(person.userId));
  return {
    fixture,
    standin,
    part,
    clock,
    link: (person) => connections.begin(SERVER, person),
    prompt: async (need) => {
      const before = dm(need.person).length;
      await prompter.prompt(need);
      const posted = dm(need.person)[before];
      if (posted === undefined) throw new Error('no Connect message was posted');
      return posted;
    },
    signIn: async (need, decision) => {
      const redirect = await fixture.oauth.decide(need.authorizationUrl, SUBJECT, decision);
      return callback(redirect.searchParams);
    },
    callback,
    dm,
    close: async () => {
      await part.close();
      await standin.close();
      await fixture.close();
    },
  };
}

type Block = { type: string };
/** True while the message still has a button to click (its actions block). */
export const hasButton = (message: PostedMessage | undefined): boolean =>
  (message?.blocks ?? []).some((block) => (block as Block).type === 'actions');

/** The message at `ts` once the stand-in has taken an update of it (the callback answers the browser first). */
export async function updated(
  standin: SlackStandin,
  message: PostedMessage,
): Promise<PostedMessage | undefined> {
  await standin.waitForCall('chat.update', (call) => call.args.ts === message.ts);
  return standin.message(message.channel, message.ts);
}
