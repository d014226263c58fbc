// The sign-in callback route on the bot's HTTP server: the query goes to Connections.complete, the person's
// browser gets a page saying connected or why not, and Slack hears of a completed sign-in. The Connections here
// is this test's own (states issued, consumed once, expiring), standing for the MCP side's, which has its own
// tests: what is proven is the route's side of the port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALLBACK_PATH,
  SignInError,
  type CallbackParams,
  type Connections,
  type Person,
} from '../../src/mcp/index.js';
import { startHttpServer, type RunningHttpServer } from '../../src/slack/http-server.js';
import { signInCallback } from '../../src/slack/sign-in-callback.js';

const ALICE: Person = { teamId: 'T1', userId: 'U1' };

/** States issued for 'tracker'; 'old' is expired; each may be completed once. */
class IssuedStates implements Pick<Connections, 'complete'> {
  readonly issued = new Set(['s-alice', 's-denied', 'old']);
  readonly used = new Set<string>();
  readonly received: CallbackParams[] = [];

  complete(params: CallbackParams): Promise<{ server: string; person: Person }> {
    this.received.push(params);
    const refuse = (code: 'state_invalid' | 'state_used' | 'state_expired' | 'denied') =>
      Promise.reject(new SignInError(code, 'tracker', `refused: ${code}`));
    if (this.used.has(params.state)) return refuse('state_used');
    if (!this.issued.has(params.state)) return refuse('state_invalid');
    this.issued.delete(params.state);
    this.used.add(params.state);
    if (params.state === 'old') return refuse('state_expired');
    if (params.error !== undefined) return refuse('denied');
    return Promise.resolve({ server: 'tracker', person: ALICE });
  }
}

const states = new IssuedStates();
const told: string[] = [];
const logged: string[] = [];
let server: RunningHttpServer;

beforeAll(async () => {
  const route = signInCallback({
    connections: states,
    connected: (s, person) => Promise.resolve(void told.push(`${s}:${person.userId}`)),
    logger: { warn: (obj) => void logged.push(JSON.stringify(obj)), error: () => undefined },
  });
  server = await startHttpServer({
    port: 0,
    live: () => true,
    ready: () => Promise.resolve({ ok: true }),
    routes: { [CALLBACK_PATH]: route },
  });
});
afterAll(async () => {
  await server.close();
});

async function callback(
  query: string,
  language = 'en-US',
): Promise<{ status: number; code?: string; text: string }> {
  const response = await fetch(`http://127.0.0.1:${server.port}${CALLBACK_PATH}?${query}`, {
    headers: { 'accept-language': language },
  });
  const html = await response.text();
  const outcome = /<p id="outcome"(?: data-code="([a-z_]+)")?>([^<]*)<\/p>/.exec(html);
  return {
    status: response.status,
    text: outcome?.[2] ?? html,
    ...(outcome?.[1] ? { code: outcome[1] } : {}),
  };
}

describe(`GET ${CALLBACK_PATH}`, () => {
  it('completes the sign-in, says connected, and tells the person in Slack', async () => {
    const page = await callback('code=c1&state=s-alice&iss=http%3A%2F%2Fas');
    expect(page).toEqual({
      status: 200,
      text: expect.stringContaining('You are connected to tracker') as string,
    });
    expect(states.received.at(-1)).toEqual({ state: 's-alice', code: 'c1', iss: 'http://as' });
    expect(told).toEqual(['tracker:U1']);
  });

  it('refuses a replayed state, saying the link cannot be used twice; Slack is not told again', async () => {
    const page = await callback('code=c1&state=s-alice');
    expect(page).toMatchObject({ status: 400, code: 'state_used' });
    expect(page.text).toContain('cannot be used twice');
    expect(told).toEqual(['tracker:U1']);
  });

  it('refuses a forged or missing state as not issued by this bot', async () => {
    expect(await callback('code=c1&state=forged')).toMatchObject({ status: 400, code: 'state_invalid' });
    expect(await callback('code=c1')).toMatchObject({ status: 400, code: 'state_invalid' });
    expect(states.received.map((p) => p.state)).not.toContain('');
  });

  it('refuses an expired state and a denial with what to do, in Chinese when the browser prefers it', async () => {
    const expired = await callback('code=c1&state=old');
    expect(expired).toMatchObject({ status: 400, code: 'state_expired' });
    expect(expired.text).toContain('/mcp connect');
    const denied = await callback('error=access_denied&state=s-denied', 'zh-CN,zh;q=0.9');
    expect(denied).toMatchObject({ status: 400, code: 'denied' });
    // The page escapes every text it shows: <服务器> arrives as entities.
    expect(denied.text).toBe(
      '登录页面未授予访问权限。请在 Slack 中运行 /mcp connect &#60;服务器&#62; 重试。',
    );
    expect(states.received.at(-1)).toEqual({ state: 's-denied', error: 'access_denied' });
  });

  it('logs the refusal by its code, never the code or state of the query', () => {
    expect(logged.join('\n')).toContain('"code":"state_used"');
    expect(logged.join('\n')).not.toMatch(/c1|s-alice|forged/);
  });
});
