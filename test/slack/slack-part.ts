// The Slack side as the bot composes it (createSlack: the Bolt app, its listeners, ToolResults wired to the MCP
// side's warm-up) against Slack's stand-in, in HTTP mode (or Socket Mode with an app-level token), with the
// test's own MCP side (`tools`): for tests that drive `/mcp` and its follow-ups with Slack's signed requests, or
// Socket Mode's connection. Its outbox and state live in the run's Redis under their own prefix, deleted on close.
import type { Clock } from '../../src/clock.js';
import {
  DEFAULT_SLACK_POLICY,
  type ConnectedSlack,
  type SignInWithSlackConfig,
} from '../../src/config/index.js';
import type { Connections, ServerStatus } from '../../src/mcp/index.js';
import type { ToolRunner } from '../../src/relay/sources/mcp.js';
import { createSlack, Outbox, SlackState, type Slack } from '../../src/slack/index.js';
import { SlackDriver, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { captureLogs, type CapturedLogs } from './log-capture.js';

const SIGNING_SECRET = 'slack-part-signing-secret';

/** The question store of a Slack part that asks no question: it only has to exist. */
export const NO_QUESTIONS = {
  pendingFor: () => Promise.resolve([]),
  pendingIn: () => Promise.resolve([]),
  get: () => Promise.resolve(undefined),
};

export interface RunningSlackPart {
  slack: Slack;
  /** Sends Slack's signed requests to it. */
  driver: SlackDriver;
  logs: CapturedLogs;
  /** Its HTTP port (/readyz, and Slack's requests in HTTP mode). */
  port: number;
  close(): Promise<void>;
}

/**
 * The Slack part for `standin` (whose bot token is `botToken`), its `/mcp` served by `tools`; in Socket Mode with
 * `appToken`, timed by `clock` (default the system's), logging to `logs` (default its own capture). `signIn`: some
 * server needs sign-in (its `connections`, ELICIT_RELAY_PUBLIC_URL), with the app's client credentials
 * (`signInWithSlack`) or without.
 */
export async function startSlackPart(input: {
  standin: SlackStandin;
  botToken: string;
  tools: ToolRunner;
  appToken?: string;
  clock?: Clock;
  logs?: CapturedLogs;
  signIn?: { connections: Connections; publicUrl: string; signInWithSlack?: SignInWithSlackConfig };
  /** The MCP servers' states /readyz shows; default none. */
  servers?: () => ServerStatus[];
}): Promise<RunningSlackPart> {
  const { standin, botToken, tools, appToken, signIn } = input;
  const prefix = uniquePrefix();
  const logs = input.logs ?? captureLogs();
  const outbox = await Outbox.open({ url: redisUrl(), prefix });
  const state = await SlackState.open({ url: redisUrl(), prefix, holderId: 'slack-part' });
  const withSlack = signIn?.signInWithSlack;
  const auth = {
    auth: 'token',
    botToken,
    apiUrl: standin.apiUrl,
    ...(withSlack ? { signInWithSlack: withSlack } : {}),
  } as const;
  const config: ConnectedSlack =
    appToken === undefined
      ? { mode: 'http', signingSecret: SIGNING_SECRET, ...auth }
      : { mode: 'socket', appToken, ...auth };
  const slack = createSlack({
    config,
    ...(input.clock ? { clock: input.clock } : {}),
    logger: logs.logger,
    outbox,
    state,
    store: NO_QUESTIONS,
    policyOf: () => DEFAULT_SLACK_POLICY,
    serving: () => true,
    started: () => true,
    servers: input.servers ?? (() => []),
    ...(signIn ? { connections: signIn.connections, publicUrl: signIn.publicUrl } : {}),
  });
  const nothingEnds = () => Promise.reject(new Error('no question ends here'));
  slack.listen({ answering: {} as never, tools, end: nothingEnds });
  const { port } = await slack.start(0);
  const eventsUrl = `http://127.0.0.1:${port}/slack/events`;
  const driver = new SlackDriver({ eventsUrl, signingSecret: SIGNING_SECRET, standin });
  const close = async (): Promise<void> => {
    await slack.stop();
    await slack.settle();
    await outbox.close();
    await state.close();
    await deleteUnder(prefix);
  };
  return { slack, driver, logs, port, close };
}
