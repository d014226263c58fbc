// The sandbox page has no sign-in: whoever reaches it acts as any person and reads the Automations panel's API
// token. So only this machine's browser, on the page's own address, may use it: another site's page must not
// act through it (a cross-site POST, which a browser sends without asking) nor read it through a host name
// that resolves here (DNS rebinding: the browser then treats the page as that site's own).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';

const ADA = 'U0ADA';

interface Answer {
  status: number;
  text: string;
}

/** One request to the page with exactly these headers (fetch would not let a test set Host). */
function send(
  url: string,
  init: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<Answer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: init.method, path: init.path, headers: init.headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('the sandbox page refuses other sites', () => {
  let sandbox: RunningSandbox;
  let host: string;

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      redisUrl: redisUrl(),
      redisPrefix: uniquePrefix(),
      logger: createLogger('silent'),
    });
    host = new URL(sandbox.url).host;
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  const command = (headers: Record<string, string>): Promise<Answer> =>
    send(sandbox.url, {
      method: 'POST',
      path: '/api/command',
      headers: { host, ...headers },
      body: JSON.stringify({ user: ADA, text: '/mcp help' }),
    });

  it("refuses another site's form post to an action, before anything is sent to the bot", async () => {
    // A page elsewhere posting text/plain: the browser sends it without a preflight, with its own Origin.
    const answer = await command({ 'content-type': 'text/plain', origin: 'http://evil.example' });
    expect(answer.status).toBe(403);
    expect(answer.text).not.toContain('"status":200');
  });

  it('refuses an action posted as text/plain even when no Origin is given', async () => {
    const answer = await command({ 'content-type': 'text/plain' });
    expect(answer.status).toBe(415);
  });

  it("refuses the person's state, with the API token, to a request naming another host", async () => {
    const answer = await send(sandbox.url, {
      method: 'GET',
      path: `/api/state?user=${ADA}&after=-1`,
      headers: { host: `rebound.evil.example:${new URL(sandbox.url).port}` },
    });
    expect(answer.status).toBe(403);
    expect(answer.text).not.toContain(sandbox.api.token);
  });

  it("still serves the page's own requests: same origin, JSON, a loopback host", async () => {
    const own = await command({ 'content-type': 'application/json', origin: `http://${host}` });
    expect(own.status).toBe(200);
    const state = await send(sandbox.url, {
      method: 'GET',
      path: `/api/state?user=${ADA}&after=-1`,
      headers: { host: `127.0.0.1:${new URL(sandbox.url).port}` },
    });
    expect(state.status).toBe(200);
    expect(state.text).toContain(sandbox.api.token);
  });
});
