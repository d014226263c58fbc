// A bot distributed by OAuth, as the system tests start it: Slack's stand-in that workspaces install it from, the
// replicas' settings, and Bolt's OAuth install as a browser runs it: /slack/install → Slack's authorize page (the
// stand-in approves for `teamId`) → /slack/oauth_redirect with the state cookie.
import type { SlackAppConfig } from '../../src/config/index.js';
import {
  startSlackStandin,
  type Installer,
  type OAuthApp,
  type RecordedCall,
  type SlackDriver,
  type SlackStandin,
  type StandinWorkspace,
} from '../../src/standin/index.js';
import { redisUrl } from '../setup/context.js';
import { loadSlackConfig } from './config.js';
import { slackCall } from './rotating-install.js';

/** Slack's stand-in for an app distributed as `client`, installable in `workspaces`; with `appToken`, Socket Mode. */
export function startDistributedStandin(
  client: OAuthApp,
  workspaces: StandinWorkspace[],
  appToken?: string,
): Promise<SlackStandin> {
  // A distributed app has no bot token of its own: each installation's token is used instead.
  return startSlackStandin({
    botToken: 'xoxb-never-used-by-a-distributed-app',
    appToken,
    oauth: client,
    workspaces,
  });
}

/** Slack's stand-in for an app distributed as `client`, with Enterprise Grid org `org`'s workspaces `teamIds`. */
export function startOrgStandin(client: OAuthApp, org: string, teamIds: string[]): Promise<SlackStandin> {
  return startDistributedStandin(
    client,
    teamIds.map((teamId) => ({ teamId, enterpriseId: org })),
  );
}

/** Slack's authorize page for `client`, as the bot's install page links to it. */
export const authorizePage = (client: OAuthApp): string =>
  `https://slack.example/oauth/v2/authorize?client_id=${client.clientId}&scope=chat:write`;

/**
 * An Org Admin approves `client` for the whole of org `org` at the stand-in, and the code is exchanged as the
 * app would: oauth.v2.access's answer.
 */
export async function installOrgAtStandin(
  standin: SlackStandin,
  client: OAuthApp,
  org: string,
): Promise<Record<string, unknown>> {
  const back = standin.oauth.approve(authorizePage(client), { enterpriseId: org, userId: 'W0ADMIN' });
  const code = new URL(back).searchParams.get('code') ?? '';
  const form = { client_id: client.clientId, client_secret: client.clientSecret, code };
  return slackCall(standin, 'oauth.v2.access', form);
}

export interface DistributedOptions {
  /** The Redis key prefix the replicas share. */
  prefix: string;
  /** How Slack reaches the bot (SLACK_SIGNING_SECRET or SLACK_APP_TOKEN) and any more settings. */
  env: Record<string, string>;
  /** The config file's `mcpServers`. */
  servers: Record<string, unknown>;
}

/** The settings of the replicas of a bot distributed as `client` against `standin`, each on a free port. */
export function distributedConfig(
  standin: SlackStandin,
  client: OAuthApp,
  options: DistributedOptions,
): SlackAppConfig {
  return loadSlackConfig({
    env: {
      SLACK_CLIENT_ID: client.clientId,
      SLACK_CLIENT_SECRET: client.clientSecret,
      SLACK_STATE_SECRET: 'state-secret-of-sixteen-plus',
      SLACK_API_URL: standin.apiUrl,
      REDIS_URL: redisUrl(),
      REDIS_PREFIX: options.prefix,
      PORT: '0',
      ELICIT_RELAY_CONFIG: 'servers.json',
      ...options.env,
    },
    readFile: () => JSON.stringify({ mcpServers: options.servers }),
  });
}

/** Installs the app in workspace `teamId` through the bot at `base`; resolves with the final page's HTTP status. */
export function install(base: string, standin: SlackStandin, teamId: string): Promise<number> {
  return installAs(base, standin, { teamId, userId: `UADMIN${teamId}` });
}

/** Installs the app as `who` approves it (a workspace, or an Enterprise Grid org as a whole) through `base`. */
export async function installAs(base: string, standin: SlackStandin, who: Installer): Promise<number> {
  const page = await fetch(`${base}/slack/install`);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const href = /href="([^"]*oauth\/v2\/authorize[^"]*)"/.exec(await page.text())?.[1] ?? '';
  const back = standin.oauth.approve(href.replaceAll('&amp;', '&'), who);
  const done = await fetch(back, { headers: { cookie }, redirect: 'manual' });
  return done.status;
}

/** The one-field form the fixture's `ask` tool is asked to send. */
export const NAME_FORM = { type: 'object', properties: { name: { type: 'string', title: 'Name' } } };

/**
 * Runs `/mcp run fixture ask` as `userId` through `driver` (whose workspace is the new install) and resolves
 * with the card Slack got, once the bot has posted it.
 */
export async function askThroughInstall(
  driver: SlackDriver,
  standin: SlackStandin,
  userId: string,
): Promise<{ status: number; card: RecordedCall }> {
  const command = await driver.slashCommand({
    userId,
    command: '/mcp',
    text: `run fixture ask ${JSON.stringify({ message: 'Name?', schema: NAME_FORM })}`,
  });
  const card = await standin.waitForCall(
    'chat.postMessage',
    (c) => c.ok && JSON.stringify(c.args.blocks ?? '').includes('elicit_respond'),
    15_000,
  );
  return { status: command.status, card };
}
