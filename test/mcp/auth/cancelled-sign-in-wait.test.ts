// A run cancelled while its session opens and waits for the person's sign-in (link.ts, pool.ts): the wait
// ends at once and its pool place goes to the person's next call, while every other call waiting for the
// same sign-in (another replica's here) keeps waiting and goes on once the person signs in. Against the
// sandbox's authorization server, the protected tracker fixture and real Redis (the shared auth fixture, its
// own key prefix, deleted afterwards).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpHub, SignInNeeded } from '../../../src/mcp/index.js';
import { deferred, type Deferred } from '../../support/deferred.js';
import { trackerHub } from './sign-in-wait.js';
import { SERVER, startAuthFixture, type AuthFixture, type AuthReplica } from './support.js';

const ANN = { teamId: 'T1', userId: 'UANN' };

let fixture: AuthFixture;
const hubs: McpHub[] = [];

beforeAll(async () => {
  fixture = await startAuthFixture();
});

afterAll(async () => {
  await Promise.all(hubs.map((hub) => hub.close()));
  await fixture.close();
});

/** The Connect messages sent, in order: the n-th resolves when the n-th is sent. */
function prompts(): { sent: Deferred<SignInNeeded>[]; prompt(need: SignInNeeded): Promise<void> } {
  const sent = Array.from({ length: 4 }, () => deferred<SignInNeeded>());
  let count = 0;
  return {
    sent,
    prompt: (need) => {
      sent[count]?.resolve(need);
      count += 1;
      return Promise.resolve();
    },
  };
}

/** A hub on `replica` with one session per person, so a second call of Ann's waits for the first's place. */
function hubOn(replica: AuthReplica, prompter: ReturnType<typeof prompts>): McpHub {
  // The bot's wait (10 minutes): a cancelled call must not wait it out.
  const hub = trackerHub(fixture, replica, { prompter, maxSessionsPerPerson: 1 });
  hubs.push(hub);
  return hub;
}

/** What `call` settled with within `ms`, or 'still waiting'. */
function within(call: Promise<unknown>, ms: number): Promise<unknown> {
  const settled = call.then(
    () => 'ran',
    (error: unknown) => error,
  );
  return Promise.race([settled, new Promise((resolve) => setTimeout(() => resolve('still waiting'), ms))]);
}

describe('a run cancelled while its session waits for the person’s sign-in', () => {
  it('stops waiting at once and frees its session place; other calls waiting for the sign-in go on', async () => {
    const [here, there] = [await fixture.replica(), await fixture.replica()];
    const [herePrompts, therePrompts] = [prompts(), prompts()];
    const [hub, otherHub] = [hubOn(here, herePrompts), hubOn(there, therePrompts)];
    const whoami = (on: McpHub, signal?: AbortSignal) =>
      on.callTool({ server: SERVER, tool: 'whoami', args: {}, origin: ANN, ...(signal ? { signal } : {}) });

    const cancelled = new AbortController();
    const first = whoami(hub, cancelled.signal);
    await herePrompts.sent[0]?.promise;
    // Ann's next call here waits for the one session place the first holds; on another replica a call of hers
    // waits for the same sign-in.
    const queued = whoami(hub);
    const elsewhere = whoami(otherHub);
    await therePrompts.sent[0]?.promise;

    cancelled.abort(new Error('the person ended the run'));
    expect(
      await within(first, 3_000),
      'a cancelled run must stop waiting for the sign-in at once, not hold its session place for the whole wait',
    ).toMatchObject({ message: 'the person ended the run' });
    // Its place freed, the queued call opens its own session, which asks Ann to sign in.
    const need = await herePrompts.sent[1]?.promise;
    if (need === undefined) throw new Error('no Connect message for the queued call');

    const callback = await fixture.oauth.decide(need.authorizationUrl, 'ann@example.com');
    await here.connections.complete({
      state: callback.searchParams.get('state') ?? '',
      code: callback.searchParams.get('code') ?? '',
    });
    expect((await queued).text).toContain('ann@example.com');
    expect(
      (await elsewhere).text,
      'a call waiting for the same sign-in is not disturbed by another call’s cancel',
    ).toContain('ann@example.com');
  });
});
