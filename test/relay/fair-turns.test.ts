// The relay starts questions in fair turns (src/relay/turns.ts) on a real store: a few at a time, each turn
// held until the question's card is queued, and another person's first card before a person's later ones.
import { describe, expect, it } from 'vitest';
import type { PostedCards, Posting, Surface } from '../../src/relay/relay.js';
import type { Question } from '../../src/relay/types.js';
import { relayOver, storesClosedAfterEach } from './support.js';

const openStore = storesClosedAfterEach();

/**
 * Records each card post as `U1:message`, and how many were waiting to be queued at once at most; a post is
 * queued (Posting.queued) and answered when the test says.
 */
class QueueingSurface implements Surface {
  readonly posts: string[] = [];
  mostAtOnce = 0;
  private readonly unqueued: (() => void)[] = [];
  private readonly onPost: (() => void)[] = [];

  async postQuestion(question: Question, posting?: Posting): Promise<PostedCards> {
    this.posts.push(`${question.userId}:${question.message}`);
    const queued = new Promise<void>((resolve) => this.unqueued.push(resolve));
    this.mostAtOnce = Math.max(this.mostAtOnce, this.unqueued.length);
    for (const wake of this.onPost.splice(0)) wake();
    await queued;
    posting?.queued?.();
    return { cards: [{ channel: `D-${question.userId}`, ts: `${this.posts.length}.1` }] };
  }

  /** Resolves once `n` posts have been made. */
  async posted(n: number): Promise<string[]> {
    while (this.posts.length < n) await new Promise<void>((resolve) => this.onPost.push(resolve));
    return this.posts;
  }

  /** Queues the oldest post not yet queued. */
  queueOldest(): void {
    this.unqueued.shift()?.();
  }

  updateCard = (): Promise<void> => Promise.resolve();
  remind = (): Promise<void> => Promise.resolve();
}

async function setUp(startsAtOnce: number) {
  const store = await openStore();
  const surface = new QueueingSurface();
  const relay = relayOver(store, surface, { startsAtOnce });
  const withdraw = new AbortController();
  const ask = (userId: string, message: string) =>
    relay.askForm({
      server: 'fixture',
      userId,
      origin: { userId },
      message,
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      timeoutMs: 60_000,
      signal: withdraw.signal,
    });
  return { surface, ask, withdraw };
}

describe('fair turns at asking', () => {
  it('starts no more questions at once than it is given, each turn held until its card is queued', async () => {
    for (const startsAtOnce of [1, 3]) {
      const { surface, ask, withdraw } = await setUp(startsAtOnce);
      const asked = ['1', '2', '3', '4', '5'].map((n) => ask('U1', n));
      for (let n = 1; n <= 5; n++) {
        await surface.posted(Math.min(5, n + startsAtOnce - 1));
        surface.queueOldest();
      }
      withdraw.abort();
      expect(await Promise.all(asked)).toEqual(asked.map(() => ({ action: 'cancel' })));
      expect([...surface.posts].sort()).toEqual(['U1:1', 'U1:2', 'U1:3', 'U1:4', 'U1:5']);
      expect(surface.mostAtOnce).toBe(startsAtOnce);
    }
  });

  it("posts another person's first card before a person's later ones", async () => {
    const { surface, ask, withdraw } = await setUp(1);
    const asked = ['1', '2', '3', '4'].map((n) => ask('U1', n));
    await surface.posted(1);
    asked.push(ask('U2', '1'));
    for (let n = 2; n <= 5; n++) {
      surface.queueOldest();
      await surface.posted(n);
    }
    expect(surface.posts).toEqual(['U1:1', 'U2:1', 'U1:2', 'U1:3', 'U1:4']);
    surface.queueOldest();
    withdraw.abort();
    await Promise.all(asked);
  });
});
