// EndedEvents, the port long-polls and anything else that hangs off question ends use: every end the store's
// transition makes wakes the subscribers on every replica, a subscriber that leaves is forgotten, and a
// consumer group hands each end to exactly one replica.
import { afterEach, describe, expect, it } from 'vitest';
import { EndedEvents, type EndedEvent } from '../../src/api/ended.js';
import { RedisConnections, keys } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { newQuestion, openStore, recordingLogger } from '../store/helpers.js';

const started: EndedEvents[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((events) => events.stop()));
});

async function replica(prefix: string, name: string): Promise<EndedEvents> {
  const logger = recordingLogger();
  const connections = new RedisConnections({ url: redisUrl() }, logger);
  const events = new EndedEvents({
    connect: (role) => connections.blocking(keys(prefix).connectionName(role, name)),
    key: keys(prefix).ended,
    consumer: name,
    logger,
  });
  started.push(events);
  await events.start();
  return events;
}

describe('ended events', () => {
  it('wake a subscriber on another replica when a question ends, and forget one that cancels', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'replica-a');
    const [b, c] = [await replica(prefix, 'replica-b'), await replica(prefix, 'replica-c')];
    const question = await store.create(newQuestion({ client: 'ci', place: { dm: 'U123' } }));
    const other = await store.create(newQuestion());
    const onB = b.subscribe(question.id);
    const onC = c.subscribe(question.id);
    const left = c.subscribe(other.id);
    left.cancel();
    expect([b.waiting, c.waiting]).toEqual([1, 1]);
    await store.finish(question.id, { action: 'decline' }, 'declined', 'U123');
    await Promise.all([onB.ended, onC.ended]);
    expect([b.waiting, c.waiting]).toEqual([0, 0]);
  });

  it('hand each end to exactly one consumer of a group across replicas', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix, 'replica-a');
    const seen: { by: string; event: EndedEvent }[] = [];
    let all: () => void = () => undefined;
    const three = new Promise<void>((resolve) => (all = resolve));
    for (const name of ['replica-b', 'replica-c']) {
      const events = await replica(prefix, name);
      await events.consume('webhooks', (event) => {
        seen.push({ by: name, event });
        if (seen.length === 3) all();
        return Promise.resolve();
      });
    }
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const q = await store.create(newQuestion());
      ids.push(q.id);
      await store.finish(q.id, { action: 'cancel' }, 'withdrawn');
    }
    await three;
    expect(seen.map((s) => s.event.id).sort()).toEqual([...ids].sort());
    expect(seen.every((s) => s.event.state === 'cancelled')).toBe(true);
  });
});
