// A card update or post refused because Redis is unavailable (the outbox's connection still reconnecting after
// an outage, while the store's is back) is queued again under the card's key. An update (the question already
// ended): the card still shows the end, and the observers (App Home, open forms) are told once. A post (the
// question stored): until the question's deadline or the replica stops, so the person still gets the card, once,
// even when a refused try's job had reached Redis; a post Slack refused is not queued again.
import { webApi } from '@slack/bolt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { StoreError } from '../../src/redis/index.js';
import type { Question } from '../../src/relay/types.js';
import { Audience } from '../../src/slack/audience.js';
import { Locales } from '../../src/slack/locales.js';
import { Outbox, classifySlackError, slackHandler } from '../../src/slack/outbox/index.js';
import { SlackSurface } from '../../src/slack/surface.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { question } from '../support/question.js';
import { recordingClock } from '../support/recording-clock.js';
import { quiet, standinClient } from './standin-client.js';

const TOKEN = 'xoxb-card-update-outage';
const unavailable = new StoreError('redis_unavailable', 'Redis unavailable during outbox send');

let standin: SlackStandin;
let outbox: Outbox;

beforeAll(async () => {
  standin = await startSlackStandin({ botToken: TOKEN });
  outbox = await Outbox.open({ url: redisUrl(), prefix: uniquePrefix(), logger: quiet });
  await outbox.start(slackHandler(singleWorkspace(standinClient(standin, TOKEN))), classifySlackError);
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await outbox.close();
  await standin.close();
});

describe('a card update while Redis is unavailable', () => {
  it('is queued again until Redis takes it, and the observers are told once', async () => {
    const clients = singleWorkspace(new webApi.WebClient(TOKEN, { slackApiUrl: standin.apiUrl }));
    const clock = recordingClock();
    const surface = new SlackSurface(clients, new Locales(clients), outbox, new Audience(clients), clock);
    const told: Question[] = [];
    surface.observe({ started: () => undefined, ended: (q) => told.push(q) });
    const send = vi
      .spyOn(outbox, 'send')
      .mockRejectedValueOnce(unavailable)
      .mockRejectedValueOnce(unavailable)
      .mockResolvedValueOnce({ ok: true });
    const declined = question({ state: 'declined', card: { channel: 'D1', ts: '1.1' } });

    await surface.updateCard(declined, { kind: 'ended' });

    expect(send).toHaveBeenCalledTimes(3);
    const keys = send.mock.calls.map(([job]) => job.key);
    expect(new Set(keys).size).toBe(1);
    expect(clock.waits).toEqual([100, 200]);
    expect(told.map((q) => q.id)).toEqual([declined.id]);
  });

  it('is not queued again after another failure', async () => {
    const clients = singleWorkspace(new webApi.WebClient(TOKEN, { slackApiUrl: standin.apiUrl }));
    const surface = new SlackSurface(clients, new Locales(clients), outbox, new Audience(clients));
    const refused = new StoreError('redis_refused', 'Redis refused the credentials');
    const send = vi.spyOn(outbox, 'send').mockRejectedValueOnce(refused);
    const declined = question({ id: 'Q2', state: 'declined', card: { channel: 'D1', ts: '1.2' } });

    await expect(surface.updateCard(declined, { kind: 'ended' })).rejects.toBe(refused);
    expect(send).toHaveBeenCalledTimes(1);
  });
});

function surfaceOn(clock = recordingClock()): SlackSurface {
  const clients = singleWorkspace(standinClient(standin, TOKEN));
  return new SlackSurface(clients, new Locales(clients), outbox, new Audience(clients), clock);
}

/** A pending question to `userId` (each test its own, so its DM holds only its card), due in a minute. */
const pendingFor = (id: string, userId: string): Question =>
  question({ id, userId, origin: { userId }, deadline: Date.now() + 60_000 });

describe('a card post while Redis is unavailable', () => {
  it('is queued again under its key until Redis takes it, and posts one card though a refused try reached Redis', async () => {
    const clock = recordingClock();
    const surface = surfaceOn(clock);
    const sendOnce = outbox.send.bind(outbox);
    const send = vi
      .spyOn(outbox, 'send')
      .mockRejectedValueOnce(unavailable)
      // This try's job reached Redis and Slack got the post; only the answer to the add was lost.
      .mockImplementationOnce(async (job) => {
        await sendOnce(job);
        throw unavailable;
      });
    const retried: unknown[] = [];
    let queued = 0;

    const posted = await surface.postQuestion(pendingFor('QP1', 'U1'), {
      queued: () => {
        queued += 1;
      },
      onRetry: (error) => {
        retried.push(error);
      },
    });

    expect(send).toHaveBeenCalledTimes(3);
    expect(new Set(send.mock.calls.map(([job]) => job.key))).toEqual(new Set(['card-QP1']));
    expect(clock.waits).toEqual([100, 200]);
    expect(retried).toEqual([unavailable, unavailable]);
    expect(queued).toBe(1);
    const cards = standin.messagesIn(standin.dmChannelOf('U1'));
    expect(cards.map((m) => ({ channel: m.channel, ts: m.ts }))).toEqual(posted.cards);
    expect(posted.cards).toHaveLength(1);
  });

  it('is not queued again once Slack refused it', async () => {
    const surface = surfaceOn();
    const send = vi.spyOn(outbox, 'send').mockRejectedValueOnce(unavailable);
    standin.failNext('chat.postMessage', 'channel_not_found');

    await expect(surface.postQuestion(pendingFor('QP2', 'U2'))).rejects.toMatchObject({
      code: 'slack_post_failed',
    });
    expect(send).toHaveBeenCalledTimes(2);
    expect(standin.messagesIn(standin.dmChannelOf('U2'))).toEqual([]);
  });

  it('is not queued again once the replica stops', async () => {
    const surface = surfaceOn();
    const send = vi.spyOn(outbox, 'send').mockRejectedValue(unavailable);
    let stopping = false;

    const posting = surface.postQuestion(pendingFor('QP3', 'U3'), {
      stopped: () => stopping,
      onRetry: () => {
        stopping = true;
      },
    });

    await expect(posting).rejects.toBe(unavailable);
    expect(send).toHaveBeenCalledTimes(2);
  });
});
