// Rolling upgrade from 001d570: that release kept each person's recent answers in one list per person,
// `slack:history:<userId>`, each entry carrying its workspace (`teamId`); this one keeps one list per person and
// workspace, `slack:answers:<teamId>:<userId>`, without it. While both run, each version records into and reads
// its own list (the Home a person sees shows the answers of the version that published it last); the older
// list is never read again, and expires with the retention its last answer gave it.
import { afterEach, describe, expect, it } from 'vitest';
import { SlackState } from '../../src/slack/state/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { rawRedis, recordingLogger } from '../store/helpers.js';

const states: SlackState[] = [];
afterEach(async () => {
  await Promise.all(states.splice(0).map((s) => s.close()));
});

const TEAM = 'T0UPG';
const USER = 'U0UPG';
/** One day, 001d570's default retention (ELICIT_RELAY_RETENTION), in seconds. */
const RETENTION_SEC = 86_400;

/**
 * An entry exactly as 001d570's recordAnswer wrote it (git show 001d570:src/slack/home.ts, the record in
 * `ended`; src/slack/state/history.ts: JSON.stringify, LPUSH, LTRIM 0 9, EXPIRE retention).
 */
const OLD_ENTRY =
  '{"questionId":"q-old-1","server":"github","message":"Merge the release branch?","state":"accepted",' +
  '"reason":"answered","at":1767225600000,"mode":"form","teamId":"T0UPG"}';

describe('recent answers across the upgrade from 001d570', () => {
  it('leaves the list the previous release wrote as it was, to expire, and records answers in the workspace list', async () => {
    const prefix = uniquePrefix();
    const redis = rawRedis();
    const oldKey = `${prefix}:slack:history:${USER}`;
    await redis.multi().lpush(oldKey, OLD_ENTRY).ltrim(oldKey, 0, 9).expire(oldKey, RETENTION_SEC).exec();
    const logger = recordingLogger();
    const state = await SlackState.open({ url: redisUrl(), prefix, holderId: 'h1', logger });
    states.push(state);

    expect(await state.recentAnswers({ teamId: TEAM, userId: USER })).toEqual([]);
    const answer = {
      questionId: 'q-new-1',
      server: 'github',
      message: 'Tag the release?',
      state: 'accepted' as const,
      reason: 'answered' as const,
      at: 1_767_225_660_000,
      mode: 'form' as const,
    };
    await state.recordAnswer({ teamId: TEAM, userId: USER }, answer);

    expect(await state.recentAnswers({ teamId: TEAM, userId: USER })).toEqual([answer]);
    // The previous release's replicas still read their list unchanged while they run; its expiry is not renewed.
    expect(await redis.lrange(oldKey, 0, -1)).toEqual([OLD_ENTRY]);
    const ttl = await redis.ttl(oldKey);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(RETENTION_SEC);
    expect(logger.logged).toEqual([]);
  });
});
