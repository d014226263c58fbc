// A Home tab a person opens is published ahead of the background refreshes a burst of question starts and ends
// queued for other people (views.publish is paced at Tier 4, ~100 a minute per workspace: one question to a
// group of 30 queues 30 refreshes, and a Home opened behind them stayed stale for the ~13 s they take).
// Counts and order only, against the stand-in enforcing the tier (rateLimits: true): no assertion on time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HomeTab } from '../../src/slack/home.js';
import { Outbox } from '../../src/slack/outbox/index.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { question } from '../support/question.js';
import { steppedClock } from '../support/stepped-clock.js';
import { memoryHomeHashes, pacedHome } from './paced-home.js';
import { quiet, standinClient } from './standin-client.js';

const BOT_TOKEN = 'xoxb-home-opened-first';

let standin: SlackStandin;
let outbox: Outbox;
let home: HomeTab;
const errors: object[] = [];

beforeEach(async () => {
  standin = await startSlackStandin({ botToken: BOT_TOKEN, rateLimits: true });
  outbox = await Outbox.open({ url: redisUrl(), prefix: uniquePrefix(), logger: quiet });
  errors.length = 0;
  home = pacedHome({ standin, botToken: BOT_TOKEN, outbox, errors });
});
afterEach(async () => {
  await home.close();
  await outbox.close();
  await standin.close();
});

describe('App Home opened during a burst of refreshes', () => {
  it('is published ahead of the refreshes already queued for 30 other people', async () => {
    const group = Array.from({ length: 30 }, (_, i) => `UG${i}`);
    home.started(question({ id: 'q-group', answerers: { users: group } }));
    await home.refresh('UOPEN');
    const published = standin.calls.filter((c) => c.method === 'views.publish' && c.ok);
    const opened = published.findIndex((c) => c.args.user_id === 'UOPEN');
    // At most the one background refresh holding this replica's turn goes first.
    expect(opened).toBeGreaterThanOrEqual(0);
    expect(opened).toBeLessThanOrEqual(1);
    expect(standin.calls.filter((c) => c.method === 'views.publish' && !c.ok)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('is published ahead of the others when its own background refresh was still waiting for its turn', async () => {
    const group = Array.from({ length: 30 }, (_, i) => `UG${i}`);
    home.started(question({ id: 'q-group', answerers: { users: group } }));
    await home.refresh('UG29');
    const published = standin.calls.filter((c) => c.method === 'views.publish' && c.ok);
    const opened = published.findIndex((c) => c.args.user_id === 'UG29');
    expect(opened).toBeGreaterThanOrEqual(0);
    expect(opened).toBeLessThanOrEqual(1);
    expect(errors).toEqual([]);
  });
});

describe('App Home of a one-workspace bot', () => {
  it('paces the refreshes of API questions (no team id) and of Slack’s (its team id) as one workspace', async () => {
    // 30 people's Home tabs at once, half for questions an API client asked (no workspace named), half for
    // questions asked in Slack: past the tier's burst, so two paces of one workspace go faster than Slack allows.
    const people = Array.from({ length: 30 }, (_, i) => `UW${i}`);
    const teamOf = (i: number) => (i % 2 === 0 ? undefined : standin.identity.teamId);
    await Promise.all(people.map((userId, i) => home.refresh(userId, teamOf(i))));
    expect(standin.calls.filter((c) => c.method === 'views.publish' && !c.ok)).toEqual([]);
    for (const userId of people) {
      expect(
        standin.calls.filter((c) => c.method === 'views.publish' && c.args.user_id === userId),
      ).toHaveLength(1);
    }
    expect(errors).toEqual([]);
  });
});

describe('App Home background refreshes at a stop', () => {
  it('are skipped, those waiting for their turn too: close() waits for none of them', async () => {
    const clock = steppedClock();
    const infos: object[] = [];
    const stopping = new HomeTab({
      clients: singleWorkspace(standinClient(standin, BOT_TOKEN)),
      pendingFor: () => Promise.resolve([]),
      history: { recordAnswer: () => Promise.resolve(), recentAnswers: () => Promise.resolve([]) },
      hashes: memoryHomeHashes(),
      locales: { of: () => Promise.resolve('en') },
      logger: { error: (obj) => errors.push(obj), info: (obj) => infos.push(obj) },
      // The workspace's budget is spent: every slot is ten minutes away.
      slot: () => Promise.resolve(10 * 60_000),
      clock,
    });
    const group = Array.from({ length: 30 }, (_, i) => `UG${i}`);
    stopping.started(question({ id: 'q-group', answerers: { users: group } }));
    // One refresh holds the turn and waits for its slot; the 29 others wait for their turn.
    await vi.waitFor(() => expect(clock.pending()).toBe(1));
    await stopping.close();
    expect(clock.pending()).toBe(0);
    expect(infos).toEqual([{ skipped: 1 }]);
    expect(standin.calls.filter((c) => c.method === 'views.publish')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
