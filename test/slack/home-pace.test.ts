// App Home re-publishes under views.publish's documented limit (Tier 4 per workspace), as the stand-in enforces
// it (rateLimits: true): 24 people's Home tabs refreshed at once (past the tier's burst of 20) and a run of
// changes for one person all land with no publish refused; the one person's changes are coalesced into a
// bounded number of publishes, the last showing the final state. Counts and contents only: no assertion on time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HomeTab } from '../../src/slack/home.js';
import { Outbox } from '../../src/slack/outbox/index.js';
import type { AnswerRecord } from '../../src/slack/state/index.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import { startSlackStandin, type RecordedCall, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { question } from '../support/question.js';
import { steppedClock, type SteppedClock } from '../support/stepped-clock.js';
import { memoryHomeHashes, pacedHome } from './paced-home.js';
import { quiet, standinClient } from './standin-client.js';

const BOT_TOKEN = 'xoxb-home-pace';

let standin: SlackStandin;
let outbox: Outbox;
let home: HomeTab;
const errors: object[] = [];
/** The latest answer shown per person: its message is the version of the person's state. */
const versions = new Map<string, number>();

const answer = (version: number): AnswerRecord => ({
  questionId: `q${version}`,
  server: 'fixture',
  message: `version ${version}`,
  state: 'accepted',
  reason: 'answered',
  at: 1_700_000_000_000 + version,
  mode: 'form',
});

beforeEach(async () => {
  standin = await startSlackStandin({ botToken: BOT_TOKEN, rateLimits: true });
  outbox = await Outbox.open({ url: redisUrl(), prefix: uniquePrefix(), logger: quiet });
  versions.clear();
  errors.length = 0;
  home = pacedHome({
    standin,
    botToken: BOT_TOKEN,
    outbox,
    errors,
    recentAnswers: ({ userId }) => Promise.resolve([answer(versions.get(userId) ?? 0)]),
  });
});
afterEach(async () => {
  await home.close();
  await outbox.close();
  await standin.close();
});

const publishes = (userId?: string): RecordedCall[] =>
  standin.calls.filter((c) => c.method === 'views.publish' && (!userId || c.args.user_id === userId));

const shows = (call: RecordedCall | undefined, version: number): boolean =>
  JSON.stringify(call?.args.view ?? {}).includes(`version ${version}`);

describe('App Home publishes under views.publish’s limit', () => {
  it('refreshes 24 people’s Home tabs at once with no publish refused, each showing its state', async () => {
    const people = Array.from({ length: 24 }, (_, i) => `UP${i}`);
    for (const [i, userId] of people.entries()) versions.set(userId, i);
    await Promise.all(people.map((userId) => home.refresh(userId)));
    expect(publishes().filter((c) => !c.ok)).toEqual([]);
    for (const [i, userId] of people.entries()) {
      expect(publishes(userId).filter((c) => c.ok)).toHaveLength(1);
      expect(shows(publishes(userId).at(-1), i)).toBe(true);
    }
    expect(errors).toEqual([]);
  });

  it('coalesces 25 changes for one person, among 25 others, into at most 2 publishes, the last final', async () => {
    const others = Array.from({ length: 25 }, (_, i) => `UO${i}`);
    const refreshes = others.map((userId) => home.refresh(userId));
    for (let version = 1; version <= 25; version += 1) {
      versions.set('UME', version);
      refreshes.push(home.refresh('UME'));
    }
    await Promise.all(refreshes);
    expect(publishes().filter((c) => !c.ok)).toEqual([]);
    const mine = publishes('UME');
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(mine.length).toBeLessThanOrEqual(2);
    expect(shows(mine.at(-1), 25)).toBe(true);
    expect(errors).toEqual([]);
  });
});

/**
 * A Home tab whose every views.publish slot is ten minutes away (the workspace's budget is spent), waited for
 * on `clock`: `recorded` and `infos` collect the answers recorded and the info lines.
 */
function homeWithSpentBudget(recorded: string[], infos: object[], clock: SteppedClock): HomeTab {
  return new HomeTab({
    clients: singleWorkspace(standinClient(standin, BOT_TOKEN)),
    pendingFor: () => Promise.resolve([]),
    history: {
      recordAnswer: ({ userId }, record) =>
        Promise.resolve(void recorded.push(`${userId} ${record.questionId}`)),
      recentAnswers: () => Promise.resolve([]),
    },
    hashes: memoryHomeHashes(),
    locales: { of: () => Promise.resolve('en') },
    logger: { error: (obj) => errors.push(obj), info: (obj) => infos.push(obj) },
    slot: () => Promise.resolve(10 * 60_000),
    clock,
  });
}

describe('App Home refreshes when a question ends', () => {
  it('publish and record for the people it named, never for the channel of a channel question', async () => {
    const recorded: string[] = [];
    const tab = new HomeTab({
      clients: singleWorkspace(standinClient(standin, BOT_TOKEN)),
      pendingFor: () => Promise.resolve([]),
      history: {
        recordAnswer: ({ userId }, record) =>
          Promise.resolve(void recorded.push(`${userId} ${record.questionId}`)),
        recentAnswers: () => Promise.resolve([]),
      },
      hashes: memoryHomeHashes(),
      locales: { of: () => Promise.resolve('en') },
      logger: { error: (obj) => errors.push(obj), info: () => undefined },
      slot: (teamId) => outbox.slotFor('views.publish', teamId),
    });
    const inChannel = { userId: 'C0APPROVE', answerers: { users: [], channel: 'C0APPROVE' } };
    tab.ended(question({ id: 'q-timed-out', ...inChannel, state: 'cancelled', reason: 'timed_out' }));
    tab.ended(question({ id: 'q-declined', ...inChannel, state: 'declined', reason: 'declined' }), 'U7');
    await tab.close();
    expect(recorded).toEqual(['U7 q-declined']);
    expect(publishes().map((c) => c.args.user_id)).toEqual(['U7']);
    expect(errors).toEqual([]);
  });
});

describe('App Home in one of several workspaces', () => {
  it('lists only the questions asked and answered in that workspace, to a person who is in both', async () => {
    const asked = (teamId: string, message: string) =>
      question({ id: `q-${teamId}`, message, userId: 'W0GRID', origin: { userId: 'W0GRID', teamId } });
    const answered = (message: string): AnswerRecord => ({ ...answer(1), message });
    const recent = { T0A: [answered('Answered in A')], T0B: [answered('Answered in B')] };
    const tab = new HomeTab({
      clients: singleWorkspace(standinClient(standin, BOT_TOKEN)),
      pendingFor: () => Promise.resolve([asked('T0A', 'Asked in A'), asked('T0B', 'Asked in B')]),
      history: {
        recordAnswer: () => Promise.resolve(),
        recentAnswers: ({ teamId }) => Promise.resolve(teamId === 'T0B' ? recent.T0B : recent.T0A),
      },
      hashes: memoryHomeHashes(),
      locales: { of: () => Promise.resolve('en') },
      logger: { error: (obj) => errors.push(obj), info: () => undefined },
      slot: (teamId) => outbox.slotFor('views.publish', teamId),
    });
    await tab.refresh('W0GRID', 'T0B');
    await tab.close();
    const shown = JSON.stringify(publishes('W0GRID').at(-1)?.args.view);
    expect(shown).toContain('Asked in B');
    expect(shown).not.toContain('Asked in A');
    expect(shown).toContain('Answered in B');
    expect(shown).not.toContain('Answered in A');
  });
});

describe('App Home refreshes at a stop', () => {
  it('are skipped while waiting for their slot, the answer recorded: close() does not wait the pace out', async () => {
    const recorded: string[] = [];
    const infos: object[] = [];
    const clock = steppedClock();
    const stopping = homeWithSpentBudget(recorded, infos, clock);
    stopping.ended(
      question({
        id: 'q-stop',
        server: 'fixture',
        message: 'Deploy?',
        state: 'cancelled',
        reason: 'call_ended',
      }),
    );
    await vi.waitFor(() => expect(clock.pending()).toBe(1));
    await stopping.close();
    expect(clock.pending()).toBe(0);
    expect(recorded).toEqual(['U1 q-stop']);
    expect(publishes()).toEqual([]);
    expect(errors).toEqual([]);
    expect(infos).toEqual([{ skipped: 1 }]);
  });

  it('of 20 people waiting for their slots at once raise no MaxListenersExceededWarning, and are all skipped', async () => {
    const recorded: string[] = [];
    const infos: object[] = [];
    const clock = steppedClock();
    const stopping = homeWithSpentBudget(recorded, infos, clock);
    const warnings: Error[] = [];
    const onWarning = (warning: Error): number => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      // In 20 workspaces: a question's refreshes take their workspace's slots in turn (home-turns.ts).
      const people = Array.from({ length: 20 }, (_, i) => `UW${i}`);
      for (const [i, userId] of people.entries()) {
        const origin = { userId, teamId: `T0W${i}` };
        stopping.ended(
          question({ id: `q-${userId}`, userId, origin, state: 'cancelled', reason: 'call_ended' }),
        );
      }
      // Each refresh waits for its slot.
      await vi.waitFor(() => expect(clock.pending()).toBe(20));
      await stopping.close();
      // process.emitWarning delivers on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    expect(clock.pending()).toBe(0);
    expect(infos).toEqual([{ skipped: 20 }]);
    expect(errors).toEqual([]);
  });
});
