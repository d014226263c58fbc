// SLACK_CLIENT_ID and SLACK_CLIENT_SECRET beside a bot token (no SLACK_STATE_SECRET) turn on Sign in with Slack at
// a Connect link's start page (src/slack/sign-in-routes.ts) without making the bot an OAuth install; half of the
// pair is refused naming the other; with a state secret too, a bot token is still refused (ambiguous).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { configErrorOf } from '../support/config.js';

const withEnv = (env: Record<string, string>) =>
  loadConfig({
    env: { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's', ...env },
    readFile: () => undefined,
  });

describe('Sign in with Slack with a bot token', () => {
  it('is on with the client id and secret, off without them, and leaves the bot a token deployment', () => {
    const on = withEnv({ SLACK_CLIENT_ID: '1111.2222', SLACK_CLIENT_SECRET: 'secret' }).slack;
    expect(on).toMatchObject({
      auth: 'token',
      botToken: 'xoxb-1',
      signInWithSlack: { clientId: '1111.2222', clientSecret: 'secret' },
    });
    expect(on.oauth).toBeUndefined();
    expect(withEnv({}).slack).not.toHaveProperty('signInWithSlack');
  });

  it('refuses half of the pair, and the pair with a state secret (an OAuth install) beside a bot token', () => {
    expect(configErrorOf(() => withEnv({ SLACK_CLIENT_ID: '1111.2222' }))).toMatchObject({
      key: 'SLACK_CLIENT_SECRET',
    });
    expect(configErrorOf(() => withEnv({ SLACK_CLIENT_SECRET: 'secret' }))).toMatchObject({
      key: 'SLACK_CLIENT_ID',
    });
    const oauth = {
      SLACK_CLIENT_ID: '1111.2222',
      SLACK_CLIENT_SECRET: 'secret',
      SLACK_STATE_SECRET: 'a-state-secret-of-some-length',
    };
    expect(configErrorOf(() => withEnv(oauth))).toMatchObject({ key: 'SLACK_BOT_TOKEN' });
  });
});
