// Whom gateway tools at POST /mcp run for: api.gateway.as for every client, a client's own `as` first, and a
// wrong value named with its key.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';

const load = (file: object) =>
  loadConfig({
    env: { ELICIT_RELAY_CONFIG: 'c.json', ELICIT_RELAY_API_TOKEN: 't0', CI: 'tci' },
    readFile: () => JSON.stringify(file),
  }).api;

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('no ConfigError');
}

describe('the gateway person', () => {
  it('is api.gateway.as for every client, and a client may name its own', () => {
    const api = load({ api: { gateway: { as: 'U0OPS' }, clients: { ci: { token: '${CI}', as: 'W0CI' } } } });
    expect(api.gatewayAs).toBe('U0OPS');
    expect(api.clients.find((c) => c.name === 'ci')?.as).toBe('W0CI');
    expect(api.clients.find((c) => c.name === 'default')).not.toHaveProperty('as');
  });

  it('is unset when nothing names one', () => {
    expect(load({})).not.toHaveProperty('gatewayAs');
  });

  it('refuses a value that is not a Slack user id, naming the key', () => {
    expect(configError(() => load({ api: { gateway: { as: '#ops' } } })).message).toContain('api.gateway.as');
    expect(configError(() => load({ api: { gateway: 'U1' } })).message).toContain('api.gateway');
    const client = { api: { clients: { ci: { token: '${CI}', as: 42 } } } };
    expect(configError(() => load(client)).message).toContain('api.clients.ci.as');
  });
});
