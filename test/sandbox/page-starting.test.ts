// The sandbox listens on its port before the bot starts (so the bot can allow it), and serves its page only once
// the bot is up. A request in between (a probe, a reload) had no listener and was never answered.
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listenPage } from '../../src/sandbox/server.js';

describe('the sandbox page while the bot starts', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it('answers 503 starting, with Retry-After, instead of holding the request', async () => {
    const page = await listenPage('127.0.0.1', 0);
    server = page.server;
    // Bounded so that the request held for good fails this test rather than the run.
    const response = await fetch(`http://127.0.0.1:${page.port}/healthz`, {
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ error: 'starting' });
  });
});
