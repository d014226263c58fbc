// GET /metrics on the public port: a scrape that fails answers 500 with a fixed text, never the error's own
// (it can carry a Redis host or a URL with its password); the error goes to the log, where redaction applies.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { metricsRoute } from '../../src/metrics/index.js';

/** Serves `route` on a free loopback port. */
async function serve(route: ReturnType<typeof metricsRoute>): Promise<{ server: Server; url: string }> {
  const server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics` };
}

describe('metricsRoute', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('answers 200 with the exposition text of a scrape', async () => {
    const scrape = () => Promise.resolve({ contentType: 'text/plain; version=0.0.4', body: 'up 1\n' });
    const { server, url } = await serve(metricsRoute({ scrape }, { error: () => undefined }));
    servers.push(server);
    const answer = await fetch(url);
    expect([answer.status, await answer.text()]).toEqual([200, 'up 1\n']);
  });

  it("answers 500 'metrics unavailable' when the scrape fails, and logs the error's text instead", async () => {
    const failure = new Error('connect ECONNREFUSED redis://:hunter2@10.1.2.3:6379');
    const logged: unknown[][] = [];
    const logger = { error: (...args: unknown[]) => void logged.push(args) };
    const { server, url } = await serve(metricsRoute({ scrape: () => Promise.reject(failure) }, logger));
    servers.push(server);
    const answer = await fetch(url);
    const text = await answer.text();
    expect([answer.status, answer.headers.get('content-type'), text]).toEqual([
      500,
      'text/plain',
      'metrics unavailable\n',
    ]);
    expect(text).not.toContain('hunter2');
    expect(logged).toEqual([[{ err: failure }, '/metrics: collecting the metrics failed (answered 500)']]);
  });
});
