// A server's `startupTimeout` (how long it has to answer MCP's handshake once started, for a stdio server started
// through npx or uvx that downloads its package first) is read as `elicitation.timeout` is, a duration string or
// milliseconds, between 1 s and 10 min; a wrong value stops start-up naming `mcpServers.<name>.startupTimeout`
// and the fix. It reaches the hub's spec of the server; absent, the hub's default applies (handshake.ts).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { mcpServerSpec } from '../../src/relay/sources/mcp.js';
import { configErrorOf } from '../support/config.js';

function load(server: string) {
  const yaml = `mcpServers:\n  pkg: { command: npx, args: [-y, some-server]${server} }\n`;
  return loadConfig({ env: {}, readFile: (path) => (path === './elicit-relay.yml' ? yaml : undefined) });
}

describe('a server’s startupTimeout', () => {
  it.each([
    ['"90s"', 90_000],
    ['2m', 120_000],
    ['1s', 1000],
    ['10m', 600_000],
    ['45000', 45_000],
  ])('reads %s as %d ms', (value, ms) => {
    expect(load(`, startupTimeout: ${value}`).servers[0]?.startupTimeoutMs).toBe(ms);
  });

  it('is absent when not set, so the hub’s default applies', () => {
    expect(load('').servers[0]).not.toHaveProperty('startupTimeoutMs');
  });

  it.each(['soon', '500ms', '11m', '-1', 'true', '[30s]'])(
    'refuses %s naming mcpServers.pkg.startupTimeout and the fix',
    (value) => {
      const error = configErrorOf(() => load(`, startupTimeout: ${value}`));
      expect(error.key).toBe('mcpServers.pkg.startupTimeout');
      expect(error.message).toContain('is not a duration between 1s and 10m');
      expect(error.message).toContain('Use a duration such as "30s" or "2m"');
    },
  );
});

describe('the hub’s spec of a server', () => {
  it('carries startupTimeout to the handshake’s bound, and leaves it out when not set', () => {
    const [set] = load(', startupTimeout: 2m').servers;
    const [unset] = load('').servers;
    expect(set && mcpServerSpec(set).startupTimeoutMs).toBe(120_000);
    expect(unset && mcpServerSpec(unset)).not.toHaveProperty('startupTimeoutMs');
  });
});
