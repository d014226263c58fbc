// A WebClient on Slack's stand-in as the outbox needs one (src/slack/outbox/slack-calls.ts): no retries of its own
// and 429s rejected, so each refusal reaches the outbox; it logs nothing, since WebClient logs each refused call at
// error level and these refusals are what the tests provoke. `quiet` is the outbox's own logger, also silent.
import { webApi } from '@slack/bolt';
import type { SlackStandin } from '../../src/standin/index.js';

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
