// ELICIT_RELAY_TOKEN_KEY also seals Slack installations (OAuth distribution): read whenever it is set, with no
// server that has `auth`; unset, nothing is sealed and nothing is required.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.js';
import { configErrorOf } from './support/config.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const OLD_KEY = Buffer.alloc(32, 9).toString('base64');
const OAUTH_ENV = {
  SLACK_CLIENT_ID: '1111.2222',
  SLACK_CLIENT_SECRET: 'client-secret',
  SLACK_STATE_SECRET: 'state-secret-of-sixteen-plus',
  SLACK_SIGNING_SECRET: 'signing-secret',
};

const load = (env: Record<string, string>) => loadConfig({ env, readFile: () => undefined });

describe('ELICIT_RELAY_TOKEN_KEY without a server that has auth', () => {
  it('is read with its previous key, for the Slack installations', () => {
    const config = load({
      ...OAUTH_ENV,
      ELICIT_RELAY_TOKEN_KEY: KEY,
      ELICIT_RELAY_TOKEN_KEY_PREVIOUS: OLD_KEY,
    });
    expect(config.signIn).toBeUndefined();
    expect(config.tokenKeys?.tokenKey.equals(Buffer.alloc(32, 7))).toBe(true);
    expect(config.tokenKeys?.previousTokenKey?.equals(Buffer.alloc(32, 9))).toBe(true);
  });

  it('is optional, and refused when it is not 32 bytes in base64', () => {
    expect(load(OAUTH_ENV).tokenKeys).toBeUndefined();
    expect(configErrorOf(() => load({ ...OAUTH_ENV, ELICIT_RELAY_TOKEN_KEY: 'c2hvcnQ=' })).key).toBe(
      'ELICIT_RELAY_TOKEN_KEY',
    );
    const previous = { ...OAUTH_ENV, ELICIT_RELAY_TOKEN_KEY: KEY, ELICIT_RELAY_TOKEN_KEY_PREVIOUS: 'nope' };
    expect(configErrorOf(() => load(previous)).key).toBe('ELICIT_RELAY_TOKEN_KEY_PREVIOUS');
  });
});

describe('ELICIT_RELAY_SEAL_INSTALLATIONS', () => {
  it('is off unless set to true, and needs ELICIT_RELAY_TOKEN_KEY to seal with', () => {
    expect(load({ ...OAUTH_ENV, ELICIT_RELAY_TOKEN_KEY: KEY }).sealInstallations).toBeUndefined();
    const on = { ...OAUTH_ENV, ELICIT_RELAY_TOKEN_KEY: KEY, ELICIT_RELAY_SEAL_INSTALLATIONS: 'true' };
    expect(load(on).sealInstallations).toBe(true);
    const keyless = configErrorOf(() => load({ ...OAUTH_ENV, ELICIT_RELAY_SEAL_INSTALLATIONS: 'true' }));
    expect(keyless).toMatchObject({ key: 'ELICIT_RELAY_SEAL_INSTALLATIONS' });
    expect(keyless.message).toContain('ELICIT_RELAY_TOKEN_KEY');
    const yes = configErrorOf(() => load({ ...on, ELICIT_RELAY_SEAL_INSTALLATIONS: 'yes' }));
    expect(yes.key).toBe('ELICIT_RELAY_SEAL_INSTALLATIONS');
  });
});
