// The sandbox: the bot against the Slack stand-in, with a web page that renders what the bot sends and
// sends each click, submission, close and slash command back to it as a real signed Slack request.
import { randomBytes } from 'node:crypto';
import type { ServerConfig, SlackAppConfig } from '../config/index.js';
import type { Logger } from '../logger.js';
import { start } from '../main.js';
import { SlackDriver, startSlackStandin } from '../standin/index.js';
import { Changes } from './changes.js';
import { SANDBOX_PEOPLE, SUGGESTED_COMMANDS, sandboxServers } from './people.js';
import { servePage } from './server.js';
import { Timeline } from './state.js';

export { SandboxError } from './actions.js';
export { SANDBOX_PEOPLE, SLOW_TIMEOUT_MS, sandboxServers } from './people.js';
export type { PersonState, TimelineItem, ViewState } from './state.js';

export interface SandboxOptions {
  /** Port of the web page (the bot itself listens on a free internal port). 0 picks a free port. */
  port: number;
  /** Interface the page binds; default 127.0.0.1 (use 0.0.0.0 inside a container). */
  host?: string;
  redisUrl: string;
  redisPrefix: string;
  logger: Logger;
  /** Servers to run besides the examples (e.g. the author's own); a same-named one replaces an example. */
  extraServers?: ServerConfig[];
}

export interface RunningSandbox {
  /** The page's address, e.g. http://localhost:3000/ */
  url: string;
  stop(): Promise<void>;
}

const BOT_TOKEN = 'xoxb-sandbox';

function serversOf(extra: ServerConfig[] = []): ServerConfig[] {
  const names = new Set(extra.map((s) => s.name));
  return [...sandboxServers().filter((s) => !names.has(s.name)), ...extra];
}

/** The bot's config in the sandbox: HTTP mode against the stand-in, on a free internal port. */
function botConfig(
  opts: SandboxOptions,
  apiUrl: string,
  signingSecret: string,
  servers: ServerConfig[],
): SlackAppConfig {
  return {
    slack: { mode: 'http', signingSecret, auth: 'token', botToken: BOT_TOKEN, apiUrl },
    redis: { url: opts.redisUrl, prefix: opts.redisPrefix },
    port: 0,
    configPath: '(sandbox)',
    servers,
    // The Automations API stays off in the sandbox until its panel exists (issue 16.10).
    api: { clients: [], webhookHosts: [] },
  };
}

export async function startSandbox(opts: SandboxOptions): Promise<RunningSandbox> {
  // A fresh secret each run: only this process's driver can sign requests the bot accepts.
  const signingSecret = randomBytes(16).toString('hex');
  const standin = await startSlackStandin({ botToken: BOT_TOKEN, users: { ...SANDBOX_PEOPLE } });
  const servers = serversOf(opts.extraServers);
  const bot = await start(botConfig(opts, standin.apiUrl, signingSecret, servers), opts.logger).catch(
    async (error: unknown) => {
      await standin.close();
      throw error;
    },
  );
  const driver = new SlackDriver({
    eventsUrl: `http://127.0.0.1:${bot.port}/slack/events`,
    signingSecret,
    standin,
  });
  const changes = new Changes(standin);
  const people = Object.entries(SANDBOX_PEOPLE).map(([id, p]) => ({ id, ...p }));
  const info = { people, servers: servers.map((s) => s.name), suggestions: SUGGESTED_COMMANDS };
  const deps = {
    standin,
    driver,
    changes,
    timeline: new Timeline(standin),
    people: SANDBOX_PEOPLE,
    info,
    listTools: (server: string, userId: string) => bot.listTools(server, userId),
    logger: opts.logger,
  };
  const page = await servePage(deps, opts.host ?? '127.0.0.1', opts.port).catch(async (error: unknown) => {
    await bot.stop();
    await standin.close();
    throw error;
  });
  return {
    url: `http://localhost:${page.port}/`,
    stop: async () => {
      changes.close();
      page.server.closeAllConnections();
      await new Promise<void>((resolve) => page.server.close(() => resolve()));
      await bot.stop();
      await standin.close();
    },
  };
}
