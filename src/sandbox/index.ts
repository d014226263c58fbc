// The sandbox: the bot against the Slack stand-in, with a web page that renders what the bot sends and
// sends each click, submission, close and slash command back to it as a real signed Slack request.
import { randomBytes } from 'node:crypto';
import type { ApiConfig, RedisAccess, ServerConfig, SlackAppConfig } from '../config/index.js';
import type { Logger } from '../logger.js';
import { type RunningRelay, start } from '../main.js';
import { type SlackStandin, SlackDriver, startSlackStandin } from '../standin/index.js';
import {
  RECEIVER_PATH,
  type SandboxApi,
  WebhookReceiver,
  automationsFor,
  sandboxApi,
} from './automations.js';
import { Changes } from './changes.js';
import { startSandboxSignIn } from './oauth/index.js';
import { SANDBOX_PEOPLE, SUGGESTED_COMMANDS, sandboxServers } from './people.js';
import { type PageDeps, listenPage, servePage } from './server.js';
import { Timeline } from './state.js';

export { SandboxError } from './actions.js';
export { APPROVAL_SCHEMA, type Automations, type ReceivedWebhook } from './automations.js';
export { TRACKER } from './oauth/index.js';
export { SANDBOX_PEOPLE, SLOW_TIMEOUT_MS, sandboxServers } from './people.js';
export type { PersonState, TimelineItem, ViewState } from './state.js';

export interface SandboxOptions {
  /** Port of the web page (the bot itself listens on a free 127.0.0.1 port). 0 picks a free port. */
  port: number;
  /** Interface the page binds; default 127.0.0.1 (use 0.0.0.0 inside a container). */
  host?: string;
  redisUrl: string;
  /** REDIS_USERNAME, REDIS_PASSWORD and REDIS_TLS_CA_FILE beside the URL, as the bot takes them. */
  redisAccess?: RedisAccess;
  redisPrefix: string;
  logger: Logger;
  /** Servers to run besides the examples (e.g. the author's own); a same-named one replaces an example. */
  extraServers?: ServerConfig[];
  /** The config's API clients and webhook settings; the sandbox adds its `default` client and receiver. */
  api?: ApiConfig;
}

export interface RunningSandbox {
  /** The page's address, e.g. http://localhost:3000/ */
  url: string;
  /** The Automations API at the page's address; `tokenFromEnv`: ELICIT_RELAY_API_TOKEN (not printed). */
  api: { url: string; token: string; tokenFromEnv: boolean };
  /** The bot's own HTTP port, on 127.0.0.1 (the page passes /api/v1, /mcp, the sign-in callback, the probes and /metrics on to it). */
  botPort: number;
  /** The local authorization server the tracker's sign-in uses (tokens sealed with a key made for this run). */
  signIn: { issuer: string };
  stop(): Promise<void>;
}

const BOT_TOKEN = 'xoxb-sandbox';

/** The examples and the tracker, then `extra`; a same-named one of `extra` replaces an example. */
function serversOf(tracker: ServerConfig, extra: ServerConfig[] = []): ServerConfig[] {
  const names = new Set(extra.map((s) => s.name));
  return [...[...sandboxServers(), tracker].filter((s) => !names.has(s.name)), ...extra];
}

/**
 * The bot's config in the sandbox: HTTP mode against the stand-in, on a free 127.0.0.1 port; sign-ins come
 * back to the page's address (`publicUrl`), and tokens are sealed with a key made for this run.
 */
function botConfig(
  opts: SandboxOptions,
  where: {
    apiUrl: string;
    publicUrl: string;
    tokenKey: Buffer;
    app: { clientId: string; clientSecret: string };
  },
  signingSecret: string,
  servers: ServerConfig[],
  api: ApiConfig,
): SlackAppConfig {
  const { apiUrl, publicUrl, tokenKey, app } = where;
  return {
    // The app's client id and secret: a Connect link asks for Sign in with Slack (the stand-in's) first.
    slack: { mode: 'http', signingSecret, auth: 'token', botToken: BOT_TOKEN, apiUrl, signInWithSlack: app },
    redis: { url: opts.redisUrl, ...opts.redisAccess, prefix: opts.redisPrefix },
    port: 0,
    // Loopback only: the page's server forwards to it from this machine, and its /metrics and /readyz are no
    // one else's to read (the page's own address is `opts.host`).
    host: '127.0.0.1',
    configPath: '(sandbox)',
    servers,
    api,
    signIn: { tokenKey, publicUrl },
  };
}

interface Started {
  standin: SlackStandin;
  bot: RunningRelay;
  signingSecret: string;
  servers: ServerConfig[];
  api: SandboxApi;
  baseUrl: string;
  receiverHost: string;
}

/** What the page's server works with, once the stand-in and the bot run. */
function pageDeps(opts: SandboxOptions, started: Started): PageDeps {
  const { standin, bot, api } = started;
  const driver = new SlackDriver({
    eventsUrl: `http://127.0.0.1:${bot.port}/slack/events`,
    signingSecret: started.signingSecret,
    standin,
  });
  const changes = new Changes(standin);
  const people = Object.entries(SANDBOX_PEOPLE).map(([id, p]) => ({ id, ...p }));
  const servers = started.servers.map((s) => s.name);
  const where = {
    baseUrl: started.baseUrl,
    receiverUrl: `http://${started.receiverHost}${RECEIVER_PATH}`,
    token: api.token,
  };
  return {
    standin,
    driver,
    changes,
    timeline: new Timeline(standin),
    people: SANDBOX_PEOPLE,
    info: { people, servers, suggestions: SUGGESTED_COMMANDS },
    listTools: (server, userId) => bot.listTools(server, userId),
    logger: opts.logger,
    botPort: bot.port,
    receiver: new WebhookReceiver(api.secret, () => changes.bump()),
    automationsFor: (userId) => automationsFor(userId, where),
  };
}

/** Runs `steps` from the last one started back to the first (what a failed start or a stop undoes). */
async function undo(steps: (() => Promise<void>)[]): Promise<void> {
  for (const step of [...steps].reverse()) await step();
}

/** `start()`'s value, or, when it throws, everything started before it stopped and the error passed on. */
async function orUndo<T>(started: (() => Promise<void>)[], start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    await undo(started);
    throw error;
  }
}

export async function startSandbox(opts: SandboxOptions): Promise<RunningSandbox> {
  // A fresh secret each run: only this process's driver can sign requests the bot accepts.
  const signingSecret = randomBytes(16).toString('hex');
  // The page listens first: its port is the webhook receiver's, which the bot's allow-list must name.
  const page = await listenPage(opts.host ?? '127.0.0.1', opts.port);
  const baseUrl = `http://localhost:${page.port}`;
  const receiverHost = `127.0.0.1:${page.port}`;
  const api = sandboxApi(opts.api, receiverHost);
  const closePage = (): Promise<void> => {
    page.server.closeAllConnections();
    return new Promise<void>((resolve) => page.server.close(() => resolve()));
  };
  const stops = [closePage];
  // The app's client credentials, made per run as the signing secret is: Sign in with Slack at the stand-in.
  const app = { clientId: 'A0STANDINAPP.1', clientSecret: randomBytes(16).toString('hex') };
  // Every channel has both people in it, so a question an automation asks a channel (README's C0123APPROVALS)
  // can be answered from its card, by either of them.
  const people = { users: { ...SANDBOX_PEOPLE }, unlistedChannelMembers: Object.keys(SANDBOX_PEOPLE) };
  const standin = await orUndo(stops, () =>
    startSlackStandin({ botToken: BOT_TOKEN, ...people, oauth: app }),
  );
  stops.push(() => standin.close());
  const signIn = await orUndo(stops, startSandboxSignIn);
  stops.push(() => signIn.stop());
  const servers = serversOf(signIn.server, opts.extraServers);
  // AES-256-GCM, 32 bytes, made for this run: the sandbox never needs ELICIT_RELAY_TOKEN_KEY.
  const where = { apiUrl: standin.apiUrl, publicUrl: baseUrl, tokenKey: randomBytes(32), app };
  const config = botConfig(opts, where, signingSecret, servers, api.config);
  // The ready line names the page's port, the one the person opens, beside the bot's own.
  const bot = await orUndo(stops, () => start(config, opts.logger, { pagePort: page.port }));
  stops.push(() => bot.stop());
  const deps = pageDeps(opts, { standin, bot, signingSecret, servers, api, baseUrl, receiverHost });
  await orUndo(stops, () => Promise.resolve(servePage(deps, page.server)));
  return {
    url: `${baseUrl}/`,
    api: { url: `${baseUrl}/api/v1`, token: api.token, tokenFromEnv: api.tokenFromEnv },
    botPort: bot.port,
    signIn: { issuer: signIn.issuer.href },
    stop: async () => {
      // The page (and the long-polls it passes on) first, then the bot, then what the bot talks to; the bot
      // told at once, as its MCP servers may be exiting already (Ctrl-C reaches the whole process group).
      bot.closing();
      deps.changes.close();
      await closePage();
      await undo(stops.slice(1));
    },
  };
}
