import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_MAX, SlackState, type AnswerRecord } from '../../src/slack/state/index.js';
import { HOME_HASH_TTL_SEC } from '../../src/slack/state/home-hashes.js';
import { keys } from '../../src/redis/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { rawRedis, recordingLogger } from '../store/helpers.js';

const states: SlackState[] = [];
afterEach(async () => {
  await Promise.all(states.splice(0).map((s) => s.close()));
});

async function open(prefix: string, retentionSec?: number) {
  const logger = recordingLogger();
  const state = await SlackState.open({
    url: redisUrl(),
    prefix,
    holderId: 'h1',
    logger,
    ...(retentionSec ? { retentionSec } : {}),
  });
  states.push(state);
  return { state, logger };
}

const record = (n: number, extra: Partial<AnswerRecord> = {}): AnswerRecord => ({
  questionId: `q-${n}`,
  server: 'github',
  message: `Question ${n}`,
  state: 'accepted',
  reason: 'answered',
  at: 1_796_200_000_000 + n,
  mode: 'form',
  ...extra,
});

/** A person in workspace T0A (or `teamId`). */
const of = (userId: string, teamId = 'T0A') => ({ teamId, userId });

describe('recent answers (SlackState)', () => {
  it('keeps each person’s latest answers, newest first, capped', async () => {
    const { state } = await open(uniquePrefix());
    for (let n = 1; n <= HISTORY_MAX + 3; n++) await state.recordAnswer(of('U1'), record(n));
    await state.recordAnswer(of('U2'), record(99, { state: 'declined', reason: 'declined' }));

    const recent = await state.recentAnswers(of('U1'));
    expect(recent.map((r) => r.questionId)).toEqual(
      Array.from({ length: HISTORY_MAX }, (_, i) => `q-${HISTORY_MAX + 3 - i}`),
    );
    expect(recent[0]).toEqual(record(HISTORY_MAX + 3));
    expect(await state.recentAnswers(of('U2'))).toEqual([
      record(99, { state: 'declined', reason: 'declined' }),
    ]);
    expect(await state.recentAnswers(of('U1'), 2)).toHaveLength(2);
    expect(await state.recentAnswers(of('U-nobody'))).toEqual([]);
  });

  it('keeps a person’s answers per workspace: a full list in one leaves the other’s', async () => {
    const { state } = await open(uniquePrefix());
    await state.recordAnswer(of('W1', 'T0B'), record(0));
    for (let n = 1; n <= HISTORY_MAX; n++) await state.recordAnswer(of('W1', 'T0A'), record(n));
    expect(await state.recentAnswers(of('W1', 'T0B'))).toEqual([record(0)]);
    expect(await state.recentAnswers(of('W1', 'T0A'))).toHaveLength(HISTORY_MAX);
    expect((await state.recentAnswers(of('W1', 'T0A'))).map((r) => r.questionId)).not.toContain('q-0');
  });

  it('lets the history expire after the retention period, renewed by each answer', async () => {
    const prefix = uniquePrefix();
    const { state } = await open(prefix, 3600);
    await state.recordAnswer(of('U1'), record(1));
    const ttl = await rawRedis().ttl(keys(prefix).answers('T0A', 'U1'));
    expect(ttl).toBeGreaterThan(3500);
    expect(ttl).toBeLessThanOrEqual(3600);
  });

  it('keeps a long message only in part, without splitting a character', async () => {
    const { state } = await open(uniquePrefix());
    await state.recordAnswer(of('U1'), record(1, { message: '😀'.repeat(2000) }));
    const [kept] = await state.recentAnswers(of('U1'));
    expect(Array.from(kept?.message ?? '')).toHaveLength(500);
    expect(kept?.message).toBe('😀'.repeat(500));
  });

  it('skips an unreadable entry and says so, keeping the others', async () => {
    const prefix = uniquePrefix();
    const { state, logger } = await open(prefix);
    await state.recordAnswer(of('U1'), record(1));
    await rawRedis().lpush(keys(prefix).answers('T0A', 'U1'), '{"questionId":"q-bad"}', 'not json');
    expect((await state.recentAnswers(of('U1'))).map((r) => r.questionId)).toEqual(['q-1']);
    expect(logger.logged.filter((l) => l.level === 'warn')).toHaveLength(2);
  });
});

describe('Home view hashes (SlackState)', () => {
  it('records a publish’s hash only over the one it was guarded by, or none, or any when catching up', async () => {
    const prefix = uniquePrefix();
    const { state } = await open(prefix);
    const home = of('W1');
    expect(await state.homeHash(home)).toBeUndefined();
    expect(await state.recordHomeHash(home, 'h1', 'none')).toBe(true);
    expect(await state.recordHomeHash(home, 'h-late', 'none')).toBe(false);
    expect(await state.recordHomeHash(home, 'h-stale', { was: 'h0' })).toBe(false);
    expect(await state.recordHomeHash(home, 'h2', { was: 'h1' })).toBe(true);
    expect(await state.homeHash(home)).toBe('h2');
    expect(await state.homeHash(of('W1', 'T0B'))).toBeUndefined();
    expect(await state.recordHomeHash(home, 'h3', 'any')).toBe(true);
    expect(await state.homeHash(home)).toBe('h3');
    const ttl = await rawRedis().ttl(keys(prefix).homeHash('T0A', 'W1'));
    expect(ttl).toBeGreaterThan(HOME_HASH_TTL_SEC - 100);
    expect(ttl).toBeLessThanOrEqual(HOME_HASH_TTL_SEC);
  });
});
