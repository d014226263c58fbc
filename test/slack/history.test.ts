import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_MAX, SlackState, type AnswerRecord } from '../../src/slack/state/index.js';
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

describe('recent answers (SlackState)', () => {
  it('keeps each person’s latest answers, newest first, capped', async () => {
    const { state } = await open(uniquePrefix());
    for (let n = 1; n <= HISTORY_MAX + 3; n++) await state.recordAnswer('U1', record(n));
    await state.recordAnswer('U2', record(99, { state: 'declined', reason: 'declined' }));

    const recent = await state.recentAnswers('U1');
    expect(recent.map((r) => r.questionId)).toEqual(
      Array.from({ length: HISTORY_MAX }, (_, i) => `q-${HISTORY_MAX + 3 - i}`),
    );
    expect(recent[0]).toEqual(record(HISTORY_MAX + 3));
    expect(await state.recentAnswers('U2')).toEqual([record(99, { state: 'declined', reason: 'declined' })]);
    expect(await state.recentAnswers('U1', 2)).toHaveLength(2);
    expect(await state.recentAnswers('U-nobody')).toEqual([]);
  });

  it('keeps the workspace an answer was given in, and reads entries written without one', async () => {
    const { state } = await open(uniquePrefix());
    await state.recordAnswer('W1', record(1));
    await state.recordAnswer('W1', record(2, { teamId: 'T0B' }));
    expect(await state.recentAnswers('W1')).toEqual([record(2, { teamId: 'T0B' }), record(1)]);
  });

  it('lets the history expire after the retention period, renewed by each answer', async () => {
    const prefix = uniquePrefix();
    const { state } = await open(prefix, 3600);
    await state.recordAnswer('U1', record(1));
    const ttl = await rawRedis().ttl(keys(prefix).history('U1'));
    expect(ttl).toBeGreaterThan(3500);
    expect(ttl).toBeLessThanOrEqual(3600);
  });

  it('keeps a long message only in part, without splitting a character', async () => {
    const { state } = await open(uniquePrefix());
    await state.recordAnswer('U1', record(1, { message: '😀'.repeat(2000) }));
    const [kept] = await state.recentAnswers('U1');
    expect(Array.from(kept?.message ?? '')).toHaveLength(500);
    expect(kept?.message).toBe('😀'.repeat(500));
  });

  it('skips an unreadable entry and says so, keeping the others', async () => {
    const prefix = uniquePrefix();
    const { state, logger } = await open(prefix);
    await state.recordAnswer('U1', record(1));
    await rawRedis().lpush(keys(prefix).history('U1'), '{"questionId":"q-bad"}', 'not json');
    expect((await state.recentAnswers('U1')).map((r) => r.questionId)).toEqual(['q-1']);
    expect(logger.logged.filter((l) => l.level === 'warn')).toHaveLength(2);
  });
});
