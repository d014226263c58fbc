// The Slack side as the bot composes it (createSlack: the Bolt app, its listeners, ToolResults wired to the MCP
// side's warm-up) in HTTP mode against Slack's stand-in, with the test's own MCP side (`tools`): for tests that
// drive `/mcp` and its follow-ups with Slack's signed requests. Its outbox and state live in the run's Redis
// under their own prefix, deleted on close.
import { DEFAULT_SLACK_POLICY } from '../../src/config/index.js';
import type { ToolRunner } from '../../src/relay/sources/mcp.js';
import { createSlack, Outbox, SlackState, type Slack } from '../../src/slack/index.js';
import { SlackDriver, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { captureLogs, type CapturedLogs } from './log-capture.js';

const SIGNING_SECRET = 'slack-part-signing-secret';

export interface RunningSlackPart {
  slack: Slack;
  /** Sends Slack's signed requests to it. */
  driver: SlackDriver;
  logs: CapturedLogs;
  close(): Promise<void>;
}

/** The Slack part for `standin` (whose bot token is `botToken`), its `/mcp` served by `tools`. */
export async function startSlackPart(input: {
  standin: SlackStandin;
  botToken: string;
  tools: ToolRunner;
}): Promise<RunningSlackPart> {
  const { standin, botToken, tools } = input;
  const prefix = uniquePrefix();
  const logs = captureLogs();
  const outbox = await Outbox.open({ url: redisUrl(), prefix });
  const state = await SlackState.open({ url: redisUrl(), prefix, holderId: 'slack-part' });
  const slack = createSlack({
    config: { mode: 'http', signingSecret: SIGNING_SECRET, auth: 'token', botToken, apiUrl: standin.apiUrl },
    logger: logs.logger,
    outbox,
    state,
    // No question is asked here: the store only has to exist.
    store: {
      pendingFor: () => Promise.resolve([]),
      pendingIn: () => Promise.resolve([]),
      get: () => Promise.resolve(undefined),
    },
    policyOf: () => DEFAULT_SLACK_POLICY,
    serving: () => true,
    started: () => true,
    servers: () => [],
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
  return { slack, driver, logs, close };
}
