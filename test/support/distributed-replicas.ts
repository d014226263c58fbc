// Two replicas of a bot distributed by OAuth, sharing one Redis prefix, as the install and uninstall system tests
// run them: Slack's stand-in the workspaces (or an Enterprise Grid org) install the app from, the replicas, a Redis
// connection to read what they keep, and what drives them (Slack's requests and events to either replica, the
// Automations API at either replica, Slack revoking an installation's tokens).
import { Redis } from 'ioredis';
import { createLogger } from '../../src/logger.js';
import { start, type RunningRelay } from '../../src/main.js';
import {
  SlackDriver,
  VERIFICATION_TOKEN,
  type Delivery,
  type OAuthApp,
  type SlackStandin,
  type StandinWorkspace,
} from '../../src/standin/index.js';
import { eventCallback } from '../../src/standin/payloads.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { distributedConfig, startDistributedStandin } from './oauth-install.js';

/** The Slack app's signing secret, as the bot and the stand-in's driver both know it. */
const SIGNING_SECRET = 'distributed-replicas-signing-secret';

export interface ReplicasOptions {
  app: OAuthApp;
  /** The workspaces the app can be installed in (each with its org, for an org-wide install). */
  workspaces: StandinWorkspace[];
  /** The config file's `mcpServers`. */
  servers: Record<string, unknown>;
  /** The Automations API's token (ELICIT_RELAY_API_TOKEN); absent: the API is off. */
  apiToken?: string;
  /** The Enterprise Grid org whose org-wide installation Slack's requests and events come through. */
  enterpriseId?: string;
}

export interface DistributedReplicas {
  standin: SlackStandin;
  replicas: RunningRelay[];
  /** A connection of the test's own to the replicas' Redis. */
  redis: Redis;
  /** The Redis key prefix the replicas share. */
  prefix: string;
  /** Replica `i`'s base URL. */
  base(i: number): string;
  /** Slack's requests from workspace `teamId` (through the org's installation, with an org), to replica `i`. */
  driverFor(i: number, teamId: string): SlackDriver;
  /** The Automations API at replica `i`, as the client of `apiToken`: the response's JSON body. */
  api(i: number, method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** Slack's event `event` from workspace `teamId` (through the org's installation, with an org), to replica `i`. */
  sendEvent(i: number, teamId: string, event: Record<string, unknown>): Promise<Delivery>;
  /** Slack revokes every bot token of the installation for workspace or org `id` (as it does at an uninstall). */
  revokeTokensOf(id: string): void;
  /** Stops the replicas, then the stand-in; disconnects `redis`. */
  close(): Promise<void>;
}

/** The stand-in and two replicas started with `options`; nothing installed yet. */
export async function startDistributedReplicas(options: ReplicasOptions): Promise<DistributedReplicas> {
  const { app, apiToken } = options;
  const standin = await startDistributedStandin(app, options.workspaces);
  const prefix = uniquePrefix();
  const env = {
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    ...(apiToken === undefined ? {} : { ELICIT_RELAY_API_TOKEN: apiToken }),
  };
  const config = distributedConfig(standin, app, { prefix, env, servers: options.servers });
  const replicas = [await start(config, createLogger('silent')), await start(config, createLogger('silent'))];
  const redis = new Redis(redisUrl());
  return {
    standin,
    replicas,
    redis,
    prefix,
    ...driving(standin, replicas, options),
    close: async () => {
      redis.disconnect();
      for (const replica of replicas) await replica.stop();
      await standin.close();
    },
  };
}

type Driving = Pick<DistributedReplicas, 'base' | 'driverFor' | 'api' | 'sendEvent' | 'revokeTokensOf'>;

/** What drives the replicas: Slack's requests, the Automations API and Slack's revocations. */
function driving(standin: SlackStandin, replicas: RunningRelay[], options: ReplicasOptions): Driving {
  const { enterpriseId, apiToken } = options;
  const base = (i: number): string => `http://127.0.0.1:${replicas[i]?.port ?? 0}`;
  const org = enterpriseId === undefined ? {} : { enterpriseId };
  const eventsUrl = (i: number): string => `${base(i)}/slack/events`;
  const driverFor = (i: number, teamId: string): SlackDriver =>
    new SlackDriver({ eventsUrl: eventsUrl(i), signingSecret: SIGNING_SECRET, standin, teamId, ...org });
  return {
    base,
    driverFor,
    api: async (i, method, path, body) => {
      const response = await fetch(`${base(i)}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${apiToken ?? ''}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as Record<string, unknown>;
    },
    sendEvent: (i, teamId, event) => {
      const nowMs = Date.now();
      const { identity } = standin;
      const json = eventCallback({ identity, teamId, ...org, token: VERIFICATION_TOKEN, nowMs, event });
      return driverFor(i, teamId).send({ json });
    },
    revokeTokensOf: (id) => {
      // An org's tokens are minted with the org as their team (src/standin/oauth.ts).
      for (const [token, identity] of standin.oauth.installed) {
        if (identity.teamId === id || identity.enterpriseId === id) standin.oauth.installed.delete(token);
      }
    },
  };
}
