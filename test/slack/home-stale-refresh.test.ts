// A Home refresh rendered from a read made before a question ended, on one replica, reaches Slack after the
// refresh another replica rendered once it ended: Slack's views.publish `hash` (recorded in Redis by each
// publish) refuses the older view, which renders again. Two HomeTabs on real Redis and the stand-in, which
// answers `hash_conflict` as Slack does.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HomeTab } from '../../src/slack/home.js';
import { SlackState, type HomeHashes } from '../../src/slack/state/index.js';
import { singleWorkspace } from '../../src/slack/workspaces.js';
import type { Question } from '../../src/relay/types.js';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deferred } from '../support/deferred.js';
import { question } from '../support/question.js';
import { standinClient } from './standin-client.js';

const BOT_TOKEN = 'xoxb-home-stale-refresh';
const USER = 'U0STALE';

let standin: SlackStandin;
const states: SlackState[] = [];
const tabs: HomeTab[] = [];
const errors: object[] = [];
/** The person's pending questions as the store holds them now. */
let pending: Question[];

beforeEach(async () => {
  standin = await startSlackStandin({ botToken: BOT_TOKEN });
  pending = [question({ id: 'q-deploy', message: 'Deploy to production?', userId: USER })];
  errors.length = 0;
});
afterEach(async () => {
  await Promise.all(tabs.splice(0).map((t) => t.close()));
  await Promise.all(states.splice(0).map((s) => s.close()));
  await standin.close();
});

/** A replica's App Home on its own connection to the shared Redis state under `prefix`. */
async function replica(prefix: string, pendingFor: () => Promise<Question[]>): Promise<HomeTab> {
  const state = await SlackState.open({ url: redisUrl(), prefix, holderId: `h${states.length}` });
  states.push(state);
  const tab = new HomeTab({
    clients: singleWorkspace(standinClient(standin, BOT_TOKEN)),
    pendingFor,
    history: state,
    hashes: state,
    locales: { of: () => Promise.resolve('en') },
    logger: { error: (obj) => errors.push(obj), info: () => undefined },
  });
  tabs.push(tab);
  return tab;
}

const shown = (): string => JSON.stringify(standin.homeOf(USER) ?? null);

describe('App Home refreshes on two replicas', () => {
  it('never let a view rendered before a question ended replace the one rendered after', async () => {
    const prefix = uniquePrefix();
    const team = standin.identity.teamId;
    // Replica 1 reads the question still pending, then is held (a busy event loop) before it publishes.
    const readDone = deferred();
    const resume = deferred();
    let holdNextRead = false;
    const slow = await replica(prefix, async () => {
      const seen = pending;
      if (holdNextRead) {
        holdNextRead = false;
        readDone.resolve();
        await resume.promise;
      }
      return seen;
    });
    const fast = await replica(prefix, () => Promise.resolve(pending));
    await fast.refresh(USER, team); // the Home as the person last saw it
    expect(shown()).toContain('Deploy to production?');

    holdNextRead = true;
    const stale = slow.refresh(USER, team);
    await readDone.promise;
    pending = []; // the question ends; the replica it ended on refreshes the Home
    await fast.refresh(USER, team);
    expect(shown()).toContain('Nothing is waiting for you.');
    resume.resolve();
    await stale;

    expect(shown()).toContain('Nothing is waiting for you.');
    expect(shown()).not.toContain('Deploy to production?');
    const publishes = standin.calls.filter((c) => c.method === 'views.publish');
    expect(publishes.map((c) => c.error ?? 'ok')).toEqual(['ok', 'ok', 'hash_conflict', 'ok']);
    expect(errors).toEqual([]);
  });

  it('catch up with a Home published without its hash recorded, and publish the current view', async () => {
    const prefix = uniquePrefix();
    const team = standin.identity.teamId;
    const tab = await replica(prefix, () => Promise.resolve(pending));
    await tab.refresh(USER, team);
    // A replica of the version before hashes (a rolling upgrade) publishes an older view, recording nothing.
    const older = {
      type: 'home' as const,
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Older' } }],
    };
    await standinClient(standin, BOT_TOKEN).views.publish({ user_id: USER, view: older });

    pending = [];
    await tab.refresh(USER, team);

    expect(shown()).toContain('Nothing is waiting for you.');
    const publishes = standin.calls.filter((c) => c.method === 'views.publish');
    // Guarded by the record: refused; unguarded, catching the record up; guarded again: the newest view.
    expect(publishes.map((c) => [c.error ?? 'ok', typeof c.args.hash])).toEqual([
      ['ok', 'undefined'],
      ['ok', 'undefined'],
      ['hash_conflict', 'string'],
      ['ok', 'undefined'],
      ['ok', 'string'],
    ]);
    expect(errors).toEqual([]);
  });
});

describe('an App Home refresh overtaken again and again', () => {
  it('gives up after five publishes, each overtaken, and says so with home_overtaken', async () => {
    const team = standin.identity.teamId;
    // Another replica's record lands first every time: each of this refresh's publishes is outdated at once.
    const alwaysOvertaken: HomeHashes = {
      homeHash: () => Promise.resolve(undefined),
      recordHomeHash: () => Promise.resolve(false),
    };
    const tab = new HomeTab({
      clients: singleWorkspace(standinClient(standin, BOT_TOKEN)),
      pendingFor: () => Promise.resolve(pending),
      history: { recordAnswer: () => Promise.resolve(), recentAnswers: () => Promise.resolve([]) },
      hashes: alwaysOvertaken,
      locales: { of: () => Promise.resolve('en') },
      logger: { error: (obj) => errors.push(obj), info: () => undefined },
    });
    tabs.push(tab);
    await expect(tab.refresh(USER, team)).rejects.toMatchObject({ code: 'home_overtaken' });
    expect(standin.calls.filter((c) => c.method === 'views.publish')).toHaveLength(5);
  });
});
