// The ended stream's `webhooks` group (src/webhooks/start.ts consumes it through src/api EndedEvents) when Redis
// loses its data: a restart without persistence, a failover to an empty node, a FLUSHALL. Played on real Redis,
// under the test's own prefix, by deleting the stream key (its consumer groups go with it, as with the data).
import { afterEach, describe, expect, it } from 'vitest';
import { EndedEvents } from '../../src/api/ended.js';
import { RedisConnections, keys } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { newQuestion, openStore, rawRedis, recordingLogger } from '../store/helpers.js';
import { deferred } from '../support/deferred.js';
import { deleteUnder } from '../support/redis-cleanup.js';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

async function endedEvents(prefix: string): Promise<EndedEvents> {
  const logger = recordingLogger();
  const connections = new RedisConnections({ url: redisUrl() }, logger);
  const events = new EndedEvents({
    connect: (role) => connections.blocking(keys(prefix).connectionName(role, 'replica-a')),
    key: keys(prefix).ended,
    lease: (holder) => keys(prefix).lease(holder),
    consumer: 'replica-a',
    logger,
  });
  opened.push(() => events.stop());
  await events.start();
  return events;
}

describe('the webhooks group of the ended stream', () => {
  it('hands a question that ends after Redis lost its data to the webhooks consumer', async () => {
    const prefix = uniquePrefix();
    opened.push(() => deleteUnder(prefix));
    const store = await openStore(prefix, 'replica-a');
    const events = await endedEvents(prefix);
    const handed: string[] = [];
    let heard = deferred();
    await events.consume('webhooks', (event) => {
      handed.push(event.id);
      heard.resolve();
      return Promise.resolve();
    });
    const before = await store.create(newQuestion({ client: 'ci' }));
    await store.finish(before.id, { action: 'cancel' }, 'withdrawn');
    await heard.promise;

    // Redis comes back empty: the stream and its consumer groups are gone. The bot keeps running.
    await rawRedis().del(keys(prefix).ended);
    heard = deferred();
    const after = await store.create(newQuestion({ client: 'ci' }));
    await store.finish(after.id, { action: 'cancel' }, 'withdrawn');
    const outcome = await Promise.race([
      heard.promise.then(() => 'handed to the webhooks consumer'),
      new Promise<string>((resolve) => setTimeout(() => resolve('not handed within 10 s'), 10_000)),
    ]);
    expect(outcome).toBe('handed to the webhooks consumer');
    expect(handed).toEqual([before.id, after.id]);
  }, 30_000);
});
