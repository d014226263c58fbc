// A durable round's request keys go into Redis as hash fields, which ioredis writes as UTF-8; a key holding a lone
// UTF-16 surrogate (JSON allows "\udc80") came back as U+FFFD, so the stored round could not be read any more
// (StoreError bad_record): the recorder of its answers failed on every end and a survivor's take-over sweep threw
// on it, every later round of the sweep left untaken. Such a round is now refused before anyone is asked.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { McpClientError } from '../../src/mcp/types.js';
import { roundKeeper } from '../../src/rounds/keeper.js';
import { CONFIRM, inputRequired, origin, scriptedHandler, scriptedHub, text } from './mrtr-scripted.js';
import { redisRoundStores } from '../support/redis-rounds.js';

const redisStore = redisRoundStores('unkept');

describe('a durable 2026 round whose request key is not well-formed text', () => {
  it('is refused before anyone is asked, leaving no round in Redis that nobody can read', async () => {
    const key = 'ok\udc80';
    const { handler } = scriptedHandler({
      t: (n) =>
        n === 0
          ? inputRequired({
              inputRequests: { [key]: inputRequired.elicit({ message: 'OK?', requestedSchema: CONFIRM }) },
              requestState: 's1',
            })
          : text('done'),
    });
    const { store, openRounds } = await redisStore();
    const rounds = roundKeeper({
      store,
      claimant: 'r1',
      clock: systemClock,
      logger: { warn: () => undefined },
    });
    // While the question is open, the round as a survivor or the recorder reads it.
    const unreadable: string[] = [];
    const { hub, sink } = scriptedHub(
      handler,
      async () => {
        for (const id of await openRounds()) {
          await store.get(id).catch((error: unknown) => unreadable.push(String(error)));
        }
        return { action: 'cancel' };
      },
      rounds,
    );
    const failed = await hub.callTool({ server: 'modern', tool: 't', args: {}, origin, durable: true }).then(
      () => undefined,
      (error: unknown) => (error instanceof McpClientError ? [error.code, error.message] : String(error)),
    );
    expect(unreadable).toEqual([]);
    expect(failed).toEqual([
      'tool_failed',
      'modern asked round 1 of t under a request key "ok\\udc80" that is not well-formed text (a lone UTF-16 ' +
        'surrogate), which the round store cannot keep',
    ]);
    expect(sink.asked).toEqual([]);
    expect(await openRounds()).toEqual([]);
  });
});
