// A sign-in whose code the authorization server refuses at the bot's callback (token_exchange_failed: a code
// expired or already used): the Connect link is spent then (its state consumed), so no callback of it will wake
// the call waiting for it. That call ends at once, on whichever replica it waits, saying the sign-in did not
// complete and how to connect again, as a sign-in denied at the consent page does (denied-sign-in.test.ts),
// rather than staying "Running…" until its wait runs out. Against the sandbox's authorization server, the
// protected tracker fixture and real Redis (the shared auth fixture, its own key prefix, deleted afterwards), and
// the bot's real callback route on another replica than the call's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_PATH, McpHub, PersonAuth, SignInError, type SignInNeeded } from '../../../src/mcp/index.js';
import { START_PATH } from '../../../src/slack/sign-in-links.js';
import { signInCallback } from '../../../src/slack/sign-in-callback.js';
import { signInStart } from '../../../src/slack/sign-in-start.js';
import { SignInBrowser } from '../../support/sign-in-browser.js';
import { SERVER, startAuthFixture, type AuthFixture, type AuthReplica } from './support.js';

let fixture: AuthFixture;
/** Where the call runs and waits for the sign-in. */
let calling: AuthReplica;
/** Where the person's browser lands on the callback. */
let landing: AuthReplica;
let http: Server;
let base: string;

beforeAll(async () => {
  fixture = await startAuthFixture();
  calling = await fixture.replica();
  landing = await fixture.replica();
  const logger = { warn: () => {}, error: () => {} };
  const { connections } = landing;
  const start = signInStart({ connections, ownerOf: () => Promise.resolve({}), logger });
  const callback = signInCallback({ connections, connected: () => Promise.resolve(), logger });
  http = createServer((req, res) => (req.url?.startsWith(START_PATH) === true ? start : callback)(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => http.close(() => resolve()));
  await fixture.close();
});

const browser = new SignInBrowser();

/** The browser landing on the bot's callback with `redirect`'s query; the page's outcome code. */
async function land(redirect: URL): Promise<string | null> {
  const html = await (await fetch(`${base}${CALLBACK_PATH}${redirect.search}`)).text();
  return /data-code="([^"]*)"/.exec(html)?.[1] ?? null;
}

function hubWith(prompts: SignInNeeded[], waitMs: number): McpHub {
  return new McpHub({
    servers: [
      {
        name: SERVER,
        transport: { kind: 'http', url: fixture.server.url.href, headers: {} },
        elicitationTimeoutMs: 60_000,
      },
    ],
    sink: { ask: () => Promise.resolve({ action: 'decline' }) },
    auth: new PersonAuth({
      grants: calling.grants,
      wakes: calling.wakes,
      prompter: {
        prompt: (need) => {
          prompts.push(need);
          return Promise.resolve();
        },
      },
      waitMs,
    }),
  });
}

async function promptOf(prompts: SignInNeeded[]): Promise<SignInNeeded> {
  for (let i = 0; i < 200 && prompts.length === 0; i += 1) await new Promise((r) => setTimeout(r, 25));
  const need = prompts[0];
  if (need === undefined) throw new Error('the person was never sent a Connect message');
  return need;
}

describe('a sign-in whose code the authorization server refuses at the callback', () => {
  it('ends the call waiting for it with token_exchange_failed, saying how to connect again, not sign_in_timeout', async () => {
    const prompts: SignInNeeded[] = [];
    // The wait a call gets for a sign-in (10 minutes in the bot; 20 s here): on the code before the fix the
    // call ends only when it runs out, with sign_in_timeout.
    const hub = hubWith(prompts, 20_000);
    try {
      const call = hub
        .callTool({ server: SERVER, tool: 'whoami', args: {}, origin: { teamId: 'T1', userId: 'UCODE' } })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      const need = await promptOf(prompts);
      const approved = await fixture.oauth.decide(
        await browser.openFor(base, need.authorizationUrl),
        'code@example.com',
        'allow',
      );
      // The code the browser comes back with is one the authorization server no longer takes (expired).
      approved.searchParams.set('code', 'expired-code');
      expect(await land(approved)).toBe('token_exchange_failed');
      const ended = await call;
      expect(ended, 'the call should fail, never run: the person never connected').toBeInstanceOf(
        SignInError,
      );
      expect(
        ended,
        'the Connect link was spent by a callback whose code was refused: the call waiting for it should end ' +
          'now with token_exchange_failed, not stay "Running…" until its sign-in wait runs out',
      ).toMatchObject({ code: 'token_exchange_failed', server: SERVER });
      expect(ended instanceof SignInError ? ended.message : String(ended)).toMatch(
        /did not complete.*\/mcp connect tracker/,
      );
      expect(await landing.connections.list({ teamId: 'T1', userId: 'UCODE' })).toEqual([]);
    } finally {
      await hub.close();
    }
  });
});
