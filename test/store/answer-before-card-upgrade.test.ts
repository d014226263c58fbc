// During a rolling upgrade, replicas of the previous release share the deployment with this one: its holders
// acknowledge inbox entries with their own INBOX_ACK_LUA (which drops an accepted answer's content at once), and
// its card posters never tell the store they drew an end (CARD_END_SHOWN_LUA is new). Both mixes must keep working,
// and an answer kept for a card must still go with its record. Real Redis, through QuestionStore.
import { afterEach, describe, expect, it } from 'vitest';
import { keys } from '../../src/redis/index.js';
import { DROPPED_OUTCOME } from '../../src/store/scripts.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteKeysUnder } from '../setup/delete-keys.js';
import { collector, newQuestion, openStore, rawRedis } from './helpers.js';
import type { Question } from '../../src/relay/types.js';

/** The previous release's INBOX_ACK_LUA, verbatim (DROPPED_OUTCOME is unchanged). */
const PREVIOUS_INBOX_ACK_LUA = `
for i = 2, #KEYS do
  if redis.call('HGET', KEYS[i], 'state') == 'accepted' then
    redis.call('HSET', KEYS[i], 'outcome', '${DROPPED_OUTCOME}')
  end
end
return redis.call('XDEL', KEYS[1], unpack(ARGV))
`;

const RETENTION_SEC = 120;
const answer = { action: 'accept', content: { ok: true } } as const;
const card = { channel: 'D1', ts: '1.000' };

const prefixes: string[] = [];
afterEach(async () => {
  await Promise.all(prefixes.splice(0).map((prefix) => deleteKeysUnder(redisUrl(), prefix)));
});

async function deployment() {
  const prefix = uniquePrefix();
  prefixes.push(prefix);
  const holder = await openStore(prefix, 'holder-a', { retentionSec: RETENTION_SEC });
  const answerer = await openStore(prefix, 'holder-b', { retentionSec: RETENTION_SEC });
  return { k: keys(prefix), holder, answerer, raw: rawRedis() };
}

describe('an answer that beats its card, across a rolling upgrade', () => {
  it("is kept no longer than its record when the card's poster is of the previous release", async () => {
    const { k, holder, answerer, raw } = await deployment();
    const handed = collector<Question>();
    await holder.startInbox((question) => handed.push(question));
    const q = await holder.create(newQuestion());
    await answerer.finish(q.id, answer, 'answered', 'U123');
    await handed.next(1);
    // A later end handed over proves the first was acknowledged (the ack goes out with the next read).
    const later = await holder.create(newQuestion());
    await answerer.finish(later.id, { action: 'decline' }, 'declined');
    await handed.next(2);
    // The previous release's poster attaches and reads the record to draw the end, and says nothing more.
    expect(await answerer.attachCards(q.id, [card])).toBe('accepted');
    expect((await answerer.get(q.id))?.outcome).toEqual(answer);
    const ttlMs = await raw.pttl(k.question(q.id));
    expect(ttlMs).toBeGreaterThan(0);
    expect(ttlMs).toBeLessThanOrEqual(RETENTION_SEC * 1000);
  });

  it("is dropped by a previous release's holder at once, and this release's poster then changes nothing", async () => {
    const { k, holder, answerer, raw } = await deployment();
    const q = await holder.create(newQuestion());
    await answerer.finish(q.id, answer, 'answered', 'U123');
    const [[entryId = ''] = []] = await raw.xrange(k.inbox('holder-a'), '-', '+');
    await raw.eval(PREVIOUS_INBOX_ACK_LUA, 2, k.inbox('holder-a'), k.question(q.id), entryId);
    expect(await answerer.attachCards(q.id, [card])).toBe('accepted');
    await answerer.endShownOnCards(q.id);
    expect(await answerer.get(q.id)).toMatchObject({
      state: 'accepted',
      endedBy: 'U123',
      card,
      outcome: { action: 'accept', content: {} },
      contentDropped: true,
    });
    expect(await raw.xlen(k.inbox('holder-a'))).toBe(0);
  });
});
