// A card update refused because Redis is unavailable (the outbox's connection still reconnecting after an
// outage, while the store's is back and the question already ended) is queued again, so the card still shows
// the end; the observers (App Home, open forms) are told once.
import { webApi } from '@slack/bolt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../src/clock.js';
import { StoreError } from '../../src/redis/index.js';
import type { Question } from '../../src/relay/types.js';
import { Audience } from '../../src/slack/audience.js';
import { Locales } from '../../src/slack/locales.js';
import { Outbox } from '../../src/slack/outbox/index.js';
import { SlackSurface } from '../../src/slack/surface.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { question } from '../support/question.js';

const TOKEN = 'xoxb-card-update-outage';

let standin: SlackStandin;
let outbox: Outbox;

beforeAll(async () => {
  standin = await startSlackStandin({ botToken: TOKEN });
  outbox = await Outbox.open({ url: redisUrl(), prefix: uniquePrefix() });
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(async () => {
  await outbox.close();
  await standin.close();
});

/** A clock whose waits are recorded and end at once. */
function recordingClock(): Pick<Clock, 'now' | 'schedule'> & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    now: () => Date.now(),
    schedule: (fn, ms) => {
      waits.push(ms);
      fn();
      return () => undefined;
    },
  };
}

describe('a card update while Redis is unavailable', () => {
  it('is queued again until Redis takes it, and the observers are told once', async () => {
    const clients = singleWorkspace(new webApi.WebClient(TOKEN, { slackApiUrl: standin.apiUrl }));
    const clock = recordingClock();
    const surface = new SlackSurface(clients, new Locales(clients), outbox, new Audience(clients), clock);
    const told: Question[] = [];
    surface.observe({ started: () => undefined, ended: (q) => told.push(q) });
    const unavailable = new StoreError('redis_unavailable', 'Redis unavailable during outbox send');
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
