// A question this replica ends itself (a stop, the backstop) while Redis is briefly away: the end is tried
// again until Redis answers, so what the server was told (cancel) is what is stored, and a later answer from
// the card cannot win. Real Redis behind a proxy the test cuts.
import { afterEach, expect, it } from 'vitest';
import { QuestionStore } from '../../src/store/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';
import { startProxy } from '../store/tcp-proxy.js';
import { RecordingSurface } from './recording-surface.js';
import { relayOver } from './support.js';

const silent = { warn: () => undefined, info: () => undefined };
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
});

async function holderBehindProxy() {
  const prefix = uniquePrefix();
  cleanup.push(() => deleteUnder(prefix));
  const proxy = await startProxy(redisUrl());
  cleanup.push(() => proxy.close());
  const holder = await QuestionStore.open({ url: proxy.url, prefix, holderId: 'holder', logger: silent });
  cleanup.push(() => holder.close());
  const other = await QuestionStore.open({ url: redisUrl(), prefix, holderId: 'other', logger: silent });
  cleanup.push(() => other.close());
  return { proxy, holder, other };
}

it('stores the cancel a stop relays though Redis was away when it began, so a later answer loses', async () => {
  const { proxy, holder, other } = await holderBehindProxy();
  const surface = new RecordingSurface();
  const relay = relayOver(holder, surface);
  const outcome = relay.askForm({
    server: 'fixture',
    userId: 'U1',
    origin: { userId: 'U1' },
    message: 'Deploy?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    timeoutMs: 60_000,
    signal: new AbortController().signal,
  });
  const question = await surface.posted;
  await proxy.cut();
  const stopping = relay.endAllWaiting('call_ended');
  await new Promise((resolve) => setTimeout(resolve, 300));
  await proxy.restore();
  await stopping;
  expect(await outcome).toEqual({ action: 'cancel' });
  const late = await other.finish(question.id, { action: 'accept', content: { ok: true } }, 'answered', 'U1');
  expect(late.won).toBe(false);
  expect(late.question).toMatchObject({ state: 'cancelled', reason: 'call_ended' });
});
