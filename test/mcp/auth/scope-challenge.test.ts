// A scope challenge (MCP authorization spec, "Scope challenge handling"): a person already connected, holding a
// live access token and a refresh token, calls a tool the server answers `insufficient_scope` naming a wider
// scope, with a 403 or, as some servers do, a 401. A refresh cannot widen a grant (RFC 6749 §6), so the person is
// asked to connect again, the Connect message saying the server needs more access and asking for the wider
// scope; the call waits for that sign-in and then runs, and the new grant replaces the old one. Against the
// sandbox's authorization server, the protected tracker fixture and real Redis (the shared auth fixture, its own
// key prefix, deleted afterwards).
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub, PersonAuth, type Person, type SignInNeeded } from '../../../src/mcp/index.js';
import type { OAuthServer } from '../../../src/sandbox/oauth/index.js';
import { deferred, type Deferred } from '../../support/deferred.js';
import { SERVER, startAuthFixture, type AuthFixture, type AuthReplica } from './support.js';

const ANN: Person = { teamId: 'T1', userId: 'UANN' };
const SUBJECT = 'ann@example.com';

let fixture: AuthFixture | undefined;
let hub: McpHub | undefined;

afterEach(async () => {
  await hub?.close();
  await fixture?.close();
  hub = undefined;
  fixture = undefined;
});

/** The Connect messages the person was sent, each awaited in turn by the test. */
class Prompts {
  private readonly sent: SignInNeeded[] = [];
  private waiting: Deferred<void> | undefined;

  prompt(need: SignInNeeded): Promise<void> {
    this.sent.push(need);
    this.waiting?.resolve();
    return Promise.resolve();
  }

  get count(): number {
    return this.sent.length;
  }

  /** The `index`th Connect message (from 0), once it was sent. */
  async nth(index: number): Promise<SignInNeeded> {
    for (;;) {
      const need = this.sent[index];
      if (need !== undefined) return need;
      this.waiting = deferred();
      await this.waiting.promise;
    }
  }
}

function hubOn(replica: AuthReplica, url: URL, prompts: Prompts): McpHub {
  return new McpHub({
    servers: [
      {
        name: SERVER,
        transport: { kind: 'http', url: url.href, headers: {} },
        elicitationTimeoutMs: 60_000,
      },
    ],
    sink: { ask: () => Promise.resolve({ action: 'decline' }) },
    auth: new PersonAuth({
      grants: replica.grants,
      wakes: replica.wakes,
      prompter: { prompt: (need) => prompts.prompt(need) },
      // Long enough never to be what ends a call here (~20 s per file).
      waitMs: 15_000,
    }),
  });
}

/**
 * A hub on a new fixture whose tracker answers its scope challenge with `status`, and Ann connected through it
 * (a grant for `mcp`, with a refresh token); `call` runs a tool as Ann and settles with its result or error.
 */
async function connected(status: 401 | 403) {
  fixture = await startAuthFixture({ scopeChallenge: status });
  const replica = await fixture.replica();
  const prompts = new Prompts();
  const running = hubOn(replica, fixture.server.url, prompts);
  hub = running;
  const call = (tool: string) =>
    running.callTool({ server: SERVER, tool, args: {}, origin: { ...ANN } }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
  const first = call('whoami');
  await approve(replica, await prompts.nth(0));
  expect(await first).toMatchObject({ result: { text: SUBJECT } });
  return { replica, prompts, call };
}

function oauth(): OAuthServer {
  if (fixture === undefined) throw new Error('no fixture started');
  return fixture.oauth;
}

/** The person approves `need` at the authorization server; their browser lands on the bot's callback. */
async function approve(replica: AuthReplica, need: SignInNeeded): Promise<void> {
  const redirect = await oauth().decide(need.authorizationUrl, SUBJECT);
  const query = redirect.searchParams;
  await replica.connections.complete({
    state: query.get('state') ?? '',
    code: query.get('code') ?? '',
    iss: query.get('iss') ?? '',
  });
}

describe.each([403, 401] as const)(
  'a %i insufficient_scope to a person holding a refresh token',
  (status) => {
    it('asks them to connect again for the wider scope, waits for it, runs the call, and keeps the new grant', async () => {
      const { replica, prompts, call } = await connected(status);
      const before = await replica.grants.record(SERVER, replica.grants.personOf(ANN));
      expect(before.tokens?.refresh_token, 'the fixture issues refresh tokens').toBeDefined();
      const refreshesBefore = oauth().tokenRequests.filter((r) => r.grantType === 'refresh_token').length;

      const report = call('admin_report');
      const first = await Promise.race([prompts.nth(1).then((need) => ({ need })), report]);
      expect(first, 'the person is asked to connect again before the call ends').toMatchObject({
        need: { reason: 'step_up' },
      });
      const stepUp = await prompts.nth(1);
      expect(stepUp.reason, 'the Connect message says the server needs more access').toBe('step_up');
      expect(stepUp.scopes, 'the sign-in asks for the wider scope the server named').toEqual(
        expect.arrayContaining(['mcp', 'admin']),
      );
      await approve(replica, stepUp);
      const outcome = await report;
      expect(outcome, 'the call waits for the new sign-in, then runs').toMatchObject({
        result: { isError: false, text: `report for ${SUBJECT}` },
      });
      expect(prompts.count, 'one Connect message for the step-up').toBe(2);
      const refreshes = oauth().tokenRequests.filter((r) => r.grantType === 'refresh_token').length;
      expect(refreshes - refreshesBefore, 'a refresh cannot widen the grant: none is tried').toBe(0);
      const after = await replica.grants.record(SERVER, replica.grants.personOf(ANN));
      expect(after.tokens?.scope?.split(' '), 'the new grant replaced the old one').toEqual(
        expect.arrayContaining(['mcp', 'admin']),
      );
      expect(after.tokens?.refresh_token).not.toBe(before.tokens?.refresh_token);
    });
  },
);

describe('a server that still refuses after the step-up', () => {
  it('ends the call with step_up_limit saying what to do, once the person granted less than it asks', async () => {
    const { replica, prompts, call } = await connected(403);
    const report = call('admin_report');
    const stepUp = await prompts.nth(1);
    // At the consent page the person grants only what they had.
    const narrowed = new URL(stepUp.authorizationUrl);
    narrowed.searchParams.set('scope', 'mcp');
    await approve(replica, { ...stepUp, authorizationUrl: narrowed });
    const outcome = await report;
    expect(
      outcome,
      'a SignInError the person reads, not "tool admin_report on tracker failed"',
    ).toMatchObject({
      error: { code: 'step_up_limit', server: SERVER },
    });
    expect('error' in outcome ? String(outcome.error) : '').toMatch(
      /still refuses this call after a new sign-in.*Connect message/,
    );
  });
});
