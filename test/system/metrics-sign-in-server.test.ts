// elicit_relay_mcp_server_connected for a server each person signs in to (`auth: {mode: oauth}`): it keeps no
// control link (ARCHITECTURE, src/mcp: "none for a server each person signs in to"), so it sits 'idle' until
// someone opens a session. ops/prometheus/alerts.yml fires the critical ElicitRelayMcpServerDown on
// `max by (server) (...) == 0` for 5 m; a 0 for it would fire after every deploy for a healthy server. It has
// no series at all (README, Metrics), while a server with a control link keeps its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthServer, type OAuthServer } from '../../src/sandbox/oauth/index.js';
import { startProtectedServer, type ProtectedServer } from '../fixtures/protected-server.js';
import { parseSamples, valueOf } from '../support/prometheus.js';
import { until } from '../support/until.js';
import { startHarness, type Harness } from './harness.js';

describe('elicit_relay_mcp_server_connected for a sign-in server', () => {
  let oauth: OAuthServer;
  let tracker: ProtectedServer;
  let h: Harness;
  beforeAll(async () => {
    oauth = await startOAuthServer();
    tracker = await startProtectedServer(oauth);
    h = await startHarness({
      env: {
        ELICIT_RELAY_TOKEN_KEY: Buffer.alloc(32, 7).toString('base64'),
        ELICIT_RELAY_PUBLIC_URL: 'https://relay.example.com',
      },
      servers: { tracker: { url: tracker.url.href, auth: { mode: 'oauth' } } },
    });
  });
  afterAll(async () => {
    await h.close();
    await tracker.close();
    await oauth.close();
  });

  it('exports no series for it, so a reachable sign-in server is never reported down', async () => {
    const scrape = async () =>
      parseSamples(await (await fetch(`http://127.0.0.1:${h.relay.port}/metrics`)).text());
    // The configured servers' links connect in the background after start-up: wait for the plain one.
    await until(
      'the fixture server is connected',
      20_000,
      async () => valueOf(await scrape(), 'elicit_relay_mcp_server_connected', { server: 'fixture' }) === 1,
    );
    // The tracker answers (its tools are listed to anyone signed in) all along.
    expect((await fetch(tracker.url)).status).toBeLessThan(500);
    const ready = (await (await fetch(`http://127.0.0.1:${h.relay.port}/readyz`)).json()) as {
      servers: { server: string; state: string }[];
    };
    expect(ready.servers.map((s) => s.server)).toContain('tracker');
    const connected = (await scrape()).filter((s) => s.name === 'elicit_relay_mcp_server_connected');
    expect(connected.map((s) => s.labels.server)).toEqual(['fixture']);
  });
});
