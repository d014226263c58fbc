// System-test harness: the real bot (in-process), real Redis, the Slack stand-in, and the fixture MCP server
// as a stdio child process. Each harness gets its own Redis prefix, so tests never share state.
import { readFileSync } from 'node:fs';
import { loadSlackConfig } from '../support/config.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { start, type RunningRelay } from '../../src/main.js';
import {
  SlackDriver,
  startSlackStandin,
  type RecordedCall,
  type SlackStandin,
  type StandinOptions,
} from '../../src/standin/index.js';
import { fixtureCommand } from '../setup/compiled.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { resultText } from '../support/slack-text.js';

export const BOT_TOKEN = 'xoxb-test-token';
export const SIGNING_SECRET = 'test-signing-secret';
export const APP_TOKEN = 'xapp-1-test-app-token';

export interface Harness {
  /** The first replica; `replicas` holds all of them (same Redis prefix, same Slack stand-in). */
  relay: RunningRelay;
  replicas: RunningRelay[];
  standin: SlackStandin;
  /** Sends Slack's requests to the first replica; `drivers[i]` to replica i. */
  driver: SlackDriver;
  drivers: SlackDriver[];
  prefix: string;
  /** Runs `/mcp run fixture ask {message, schema}` as the user and waits for the card in their DM. */
  ask(
    userId: string,
    schema: object,
    message?: string,
    extra?: { timeoutMs?: number },
  ): Promise<{ channel: string; ts: string }>;
  /** Runs `/mcp run <server> <tool> <args>` (server default `fixture`) and waits for the card in their DM. */
  run(userId: string, tool: string, args: object, server?: string): Promise<{ channel: string; ts: string }>;
  /**
   * Waits for the tool result message posted after the question ended (in the person's DM, or in the run's
   * thread `in`), and parses the ElicitResult it reports.
   */
  toolResult(userId: string, in_?: { channel: string; threadTs: string }): Promise<Record<string, unknown>>;
  /** The next message posted in the person's DM that mentions `marker` and no earlier call here returned. */
  posted(userId: string, marker: string): Promise<RecordedCall>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** The fixture server's elicitation.timeout; default 2m. */
  timeout?: string;
  replicas?: number;
  /** More keys of the fixture server's `elicitation` policy (mode, ratePerMinute). */
  policy?: Record<string, unknown>;
  /** The fixture server's `slack` policy (route, answerers, showAnswers, review, onClose, reminders). */
  slack?: Record<string, unknown>;
  /** User groups, channel members and the bot token's scopes the stand-in knows. */
  workspace?: Pick<StandinOptions, 'usergroups' | 'channels' | 'users' | 'scopes'>;
  /** More servers running the same fixture, by name, each with its own elicitation timeout. */
  moreFixtures?: Record<string, { timeout: string }>;
  /** More `mcpServers` entries as written in the config file (e.g. `{ url }` of an outside peer). */
  servers?: Record<string, unknown>;
  /** REDIS_URL of the replicas (e.g. a proxy a test can cut); default the test Redis. */
  redisUrl?: string;
  /** The Redis settings instead of REDIS_URL (e.g. REDIS_CLUSTER_NODES of a test topology). */
  redisEnv?: Record<string, string>;
  /** Socket Mode (SLACK_APP_TOKEN, no signing secret): the drivers send envelopes over the socket. */
  socketMode?: boolean;
  /** The replicas' logger; default silent. */
  logger?: Logger;
  /** More environment variables (e.g. ELICIT_RELAY_API_TOKEN). */
  env?: Record<string, string>;
  /** More top-level keys of the config file (e.g. `api`). */
  config?: Record<string, unknown>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const prefix = uniquePrefix();
  const standin = await startSlackStandin({
    botToken: BOT_TOKEN,
    appToken: APP_TOKEN,
    users: { UZH: { name: 'mei', realName: 'Mei', locale: 'zh-CN' } },
    ...options.workspace,
  });
  const slackEnv = options.socketMode
    ? { SLACK_APP_TOKEN: APP_TOKEN }
    : { SLACK_SIGNING_SECRET: SIGNING_SECRET };
  const config = loadSlackConfig({
    env: {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      ...slackEnv,
      SLACK_API_URL: standin.apiUrl,
      ...(options.redisEnv ?? { REDIS_URL: options.redisUrl ?? redisUrl() }),
      REDIS_PREFIX: prefix,
      PORT: '0',
      ELICIT_RELAY_CONFIG: 'fixture.json',
      ...options.env,
    },
    // The config file is this fixture; any other file (e.g. REDIS_TLS_CA_FILE) is read from disk.
    readFile: (path) =>
      path !== 'fixture.json'
        ? readFileSync(path, 'utf8')
        : JSON.stringify({
            mcpServers: {
              fixture: {
                ...fixtureCommand(),
                elicitation: { timeout: options.timeout ?? '2m', ...options.policy },
                ...(options.slack ? { slack: options.slack } : {}),
              },
              ...Object.fromEntries(
                Object.entries(options.moreFixtures ?? {}).map(([name, { timeout }]) => [
                  name,
                  { ...fixtureCommand(), elicitation: { timeout } },
                ]),
              ),
              ...options.servers,
            },
            ...options.config,
          }),
  });
  const replicas: RunningRelay[] = [];
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    replicas.push(await start(config, options.logger ?? createLogger('silent')));
  }
  const drivers = replicas.map((replica) =>
    options.socketMode
      ? new SlackDriver({ transport: standin.socketTransport(), standin })
      : new SlackDriver({
          eventsUrl: `http://127.0.0.1:${replica.port}/slack/events`,
          signingSecret: SIGNING_SECRET,
          standin,
        }),
  );
  const [relay] = replicas;
  const [driver] = drivers;
  if (!relay || !driver) throw new Error('harness needs at least one replica');
  const seen = new Set<RecordedCall>();
  const nextPost = async (channel: string, match: (c: RecordedCall) => boolean): Promise<RecordedCall> => {
    // Up to 30 s: a person's first run spawns their own stdio fixture (compiled JS, ~1 s on a loaded machine),
    // which takes several times longer while the suite's Cluster, Sentinel and conformance tiers run beside it.
    const call = await standin.waitForCall(
      'chat.postMessage',
      (c) => !seen.has(c) && c.ok && c.args.channel === channel && match(c),
      30_000,
    );
    seen.add(call);
    return call;
  };
  const isCard = (c: RecordedCall): boolean =>
    /elicit_respond|elicit_url_open/.test(JSON.stringify(c.args.blocks ?? ''));
  // The fixture's tools report JSON: a result message's sections after its headline parse as it.
  const isResult = (c: RecordedCall): boolean => !isCard(c) && parsesAsJson(resultText(c.args.blocks));
  const run = async (
    userId: string,
    tool: string,
    args: object,
    server = 'fixture',
  ): Promise<{ channel: string; ts: string }> => {
    const response = await driver.slashCommand({
      userId,
      command: '/mcp',
      text: `run ${server} ${tool} ${JSON.stringify(args)}`,
    });
    if (response.status !== 200) throw new Error(`slash command got HTTP ${response.status}`);
    const channel = standin.dmChannelOf(userId);
    await nextPost(channel, isCard);
    const card = standin
      .messagesIn(channel)
      .findLast((m) => /elicit_respond|elicit_url_open/.test(JSON.stringify(m.blocks ?? '')));
    if (!card) throw new Error('no card posted');
    return { channel, ts: card.ts };
  };
  return {
    relay,
    replicas,
    standin,
    driver,
    drivers,
    prefix,
    ask: (userId, schema, message = 'Please answer', extra = {}) =>
      run(userId, 'ask', { message, schema, ...extra }),
    run,
    toolResult: async (userId, thread) => {
      const call = thread
        ? await nextPost(thread.channel, (c) => isResult(c) && c.args.thread_ts === thread.threadTs)
        : await nextPost(standin.dmChannelOf(userId), isResult);
      return JSON.parse(resultText(call.args.blocks)) as Record<string, unknown>;
    },
    posted: (userId, marker) =>
      nextPost(standin.dmChannelOf(userId), (c) => JSON.stringify(c.args).includes(marker)),
    close: async () => {
      for (const replica of replicas) await replica.stop();
      await standin.close();
    },
  };
}

/** Clicks Respond on `card` as `userId` and resolves with the id of the form Slack opened for them. */
export async function openForm(
  h: Harness,
  userId: string,
  card: { channel: string; ts: string },
): Promise<string> {
  const opened = h.standin.openViews(userId).length;
  await h.driver.clickButton({ userId, ...card, actionId: 'elicit_respond' });
  await h.standin.waitForCall('views.open', () => h.standin.openViews(userId).length > opened, 10_000);
  const view = h.standin.openViews(userId).at(-1);
  if (!view) throw new Error('no modal open');
  return view.id;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The block id of the input of form `viewId` whose label starts with `label`. */
export function inputLabelled(h: Harness, viewId: string, label: string): string {
  const view = h.standin.view(viewId)?.view as {
    blocks: { type: string; block_id: string; label?: { text: string } }[];
  };
  const block = view.blocks.find((b) => b.type === 'input' && b.label?.text.startsWith(label));
  if (!block) throw new Error(`no input labelled ${label}`);
  return block.block_id;
}

/**
 * A harness whose fixture server asks in the approvals channel C0APPROVE, answered by `users` and the members of
 * `usergroups` (user group id → member ids), never by the person who ran the tool.
 */
export function startApprovals(users: string[], usergroups: Record<string, string[]> = {}): Promise<Harness> {
  return startHarness({
    slack: {
      route: 'channel',
      channel: 'C0APPROVE',
      answerers: { requester: false, users, usergroups: Object.keys(usergroups) },
    },
    workspace: { usergroups },
  });
}
