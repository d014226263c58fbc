// Right after Redis restarts, the store may answer again (a new question is stored) while the Slack outbox's
// connections are still reconnecting: the question's card post is refused as redis_unavailable. It must be
// queued again until the outbox takes it, the card then posted once and attached, not the question ended at once
// as delivery_failed (the person would never see a question that could be shown a second later). The outbox
// reaches the private redis-server through the in-repo TCP proxy, held cut until the post was refused, so "the
// outbox still reconnecting" is a state this test sets rather than a race it hopes to win.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Relay } from '../../src/relay/relay.js';
import { Audience } from '../../src/slack/audience.js';
import { Locales } from '../../src/slack/locales.js';
import { Outbox, classifySlackError, slackHandler } from '../../src/slack/outbox/index.js';
import { SlackSurface } from '../../src/slack/surface.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { QuestionStore } from '../../src/store/index.js';
import { uniquePrefix } from '../setup/context.js';
import { relayOver, silent } from '../relay/support.js';
import { quiet, standinClient } from '../slack/standin-client.js';
import { startProxy, type TcpProxy } from '../store/tcp-proxy.js';
import { deferred } from '../support/deferred.js';
import { until } from '../support/until.js';
import { startPrivateRedis, type PrivateRedis } from './support/redis-server.js';

const TOKEN = 'xoxb-card-post-restart';
/** How long Redis and the bot's connections may take to come back, in ms (reconnects back off to 2 s). */
const BACK_WITHIN_MS = 40_000;
/** CardDelivery's log line for a post queued again while Redis is unavailable. */
const POSTING_AGAIN = 'posting cards again, Redis unavailable';

let redis: PrivateRedis;
let proxy: TcpProxy;
let standin: SlackStandin;
let store: QuestionStore;
let outbox: Outbox;
let relay: Relay;
/** Resolves with the id of the first question whose card post was refused and will be queued again. */
const refused = deferred<string>();

beforeAll(async () => {
  redis = await startPrivateRedis({ aof: true });
  proxy = await startProxy(redis.url);
  standin = await startSlackStandin({ botToken: TOKEN });
  const prefix = uniquePrefix();
  store = await QuestionStore.open({ url: redis.url, prefix, holderId: 'holder-a', logger: silent });
  outbox = await Outbox.open({ url: proxy.url, prefix, logger: quiet });
  const clients = singleWorkspace(standinClient(standin, TOKEN));
  await outbox.start(slackHandler(clients), classifySlackError);
  const surface = new SlackSurface(clients, new Locales(clients), outbox, new Audience(clients));
  const logger = {
    error: () => undefined,
    warn: (fields: object, msg: string) => {
      if (msg === POSTING_AGAIN && 'questionId' in fields && typeof fields.questionId === 'string') {
        refused.resolve(fields.questionId);
      }
    },
  };
  relay = relayOver(store, surface, { logger });
  await store.startInbox((question) => relay.onFinished(question));
});

afterAll(async () => {
  await outbox.close();
  await store.close();
  await standin.close();
  await proxy.close();
  await redis.stop();
});

describe('a question asked right after a Redis restart', () => {
  it('gets its card once the outbox is back, instead of ending as delivery_failed', async () => {
    await redis.kill('SIGKILL');
    await proxy.cut();
    await redis.restart();
    await until(
      'the store answers again',
      BACK_WITHIN_MS,
      async () => (await store.get('none')) === undefined,
    );

    const answer = relay.askForm({
      server: 'fixture',
      userId: 'U1',
      origin: { userId: 'U1' },
      message: 'Ship it?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      timeoutMs: 60_000,
      signal: new AbortController().signal,
    });
    const first = await Promise.race([
      refused.promise.then((id) => ({ refused: id })),
      answer.then((outcome) => ({ endedFirst: outcome })),
    ]);
    expect(first).not.toHaveProperty('endedFirst');
    const id = 'refused' in first ? first.refused : '';

    await proxy.restore();
    await until(
      'the card is attached',
      BACK_WITHIN_MS,
      async () => (await store.get(id))?.card !== undefined,
    );
    const cards = standin.messagesIn(standin.dmChannelOf('U1'));
    expect(cards.map((m) => ({ channel: m.channel, ts: m.ts }))).toEqual([(await store.get(id))?.card]);
    expect(await store.get(id)).toMatchObject({ state: 'pending' });

    await relay.end(id, { action: 'decline' }, 'declined');
    expect(await answer).toEqual({ action: 'decline' });
  }, 90_000);
});
