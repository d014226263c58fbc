// An operator turning Sign in with Slack on beside a bot token (SLACK_CLIENT_ID and SLACK_CLIENT_SECRET, no
// SLACK_STATE_SECRET) who also sets SLACK_STATE_SECRET, as an OAuth install has it, is refused at start-up: the
// bot cannot tell which they meant. The refusal said only "Unset SLACK_BOT_TOKEN", which would make the bot an OAuth
// install (a different deployment) and leave the Connect links unchecked until they found the real fix; it now
// names both ways out. Half of the OAuth trio beside a bot token says the same.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { configErrorOf } from '../support/config.js';

const withBotToken = (env: Record<string, string>) => () =>
  loadConfig({
    env: { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's', ...env },
    readFile: () => undefined,
  });
const STATE_SECRET = 'a-state-secret-of-some-length';
const UNSET_STATE_SECRET =
  'For Sign in with Slack at Connect links beside SLACK_BOT_TOKEN, unset SLACK_STATE_SECRET instead.';

describe('Sign in with Slack settings beside a bot token, mistaken for an OAuth install', () => {
  it('names unsetting SLACK_STATE_SECRET when the client id, secret and state secret are all set', () => {
    const error = configErrorOf(
      withBotToken({
        SLACK_CLIENT_ID: '1111.2222',
        SLACK_CLIENT_SECRET: 'x',
        SLACK_STATE_SECRET: STATE_SECRET,
      }),
    );
    expect(error.key).toBe('SLACK_BOT_TOKEN');
    expect(error.message).toContain(UNSET_STATE_SECRET);
  });

  it('names it when the state secret is set but the client secret is not', () => {
    const error = configErrorOf(
      withBotToken({ SLACK_CLIENT_ID: '1111.2222', SLACK_STATE_SECRET: STATE_SECRET }),
    );
    expect(error.key).toBe('SLACK_CLIENT_SECRET');
    expect(error.message).toContain(UNSET_STATE_SECRET);
  });

  it('does not name it to an OAuth install without a bot token', () => {
    const error = configErrorOf(() =>
      loadConfig({
        env: { SLACK_SIGNING_SECRET: 's', SLACK_CLIENT_ID: '1111.2222', SLACK_STATE_SECRET: STATE_SECRET },
        readFile: () => undefined,
      }),
    );
    expect(error.key).toBe('SLACK_CLIENT_SECRET');
    expect(error.message).not.toContain('SLACK_BOT_TOKEN');
  });
});
