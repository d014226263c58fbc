// A WebClient on Slack's stand-in as the outbox needs one (src/slack/outbox/slack-calls.ts): no retries of its own
// and 429s rejected, so each refusal reaches the outbox; it logs nothing, since WebClient logs each refused call at
// error level and these refusals are what the tests provoke. `quiet` is the outbox's own logger, also silent.
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll } from 'vitest';
import { retryingMessages, type Messages } from '../../src/slack/messages.js';
import { singleWorkspace, type SlackClients } from '../../src/slack/workspaces.js';
import { startSlackStandin, type SlackStandin, type StandinOptions } from '../../src/standin/index.js';

export const quiet = { warn: () => undefined, info: () => undefined };

const silent: webApi.Logger = {
  ...quiet,
  debug: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => webApi.LogLevel.ERROR,
  setName: () => undefined,
};

export function standinClient(standin: SlackStandin, botToken: string): webApi.WebClient {
  return new webApi.WebClient(botToken, {
    slackApiUrl: standin.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logger: silent,
  });
}

/**
 * A stand-in started before a describe block's tests and the bot's Messages (src/slack/messages.ts) on it, made
 * with an outbox-style client (429s handed back); the stand-in closed after the tests.
 */
export function standinWithMessages(options: StandinOptions & { botToken: string }): {
  readonly standin: SlackStandin;
  readonly clients: SlackClients;
  readonly messages: Messages;
} {
  let started: { standin: SlackStandin; clients: SlackClients } | undefined;
  beforeAll(async () => {
    const standin = await startSlackStandin(options);
    started = { standin, clients: singleWorkspace(standinClient(standin, options.botToken)) };
  });
  afterAll(async () => {
    await started?.standin.close();
  });
  const get = () => {
    if (!started) throw new Error('the stand-in starts in beforeAll');
    return started;
  };
  return {
    get standin() {
      return get().standin;
    },
    get clients() {
      return get().clients;
    },
    get messages() {
      return retryingMessages(get().clients);
    },
  };
}
