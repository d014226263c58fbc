// Test doubles of the relay's ports for test/relay/relay.test.ts and url-complete.test.ts: a surface that records
// what the relay shows (with posts that fail or wait when told), and a clock whose scheduled work runs when the
// test fires it.
import { RelayError } from '../../src/relay/errors.js';
import type { CardChange, PostedCards, RelayClock, Surface } from '../../src/relay/relay.js';
import type { Question } from '../../src/relay/types.js';

/** Slack's place in the relay: records each post, end, reminder and URL step, and can fail or slow a post. */
export class RecordingSurface implements Surface {
  readonly ended: Question[] = [];
  failPosting = false;
  /** When set, one card is out and another could not be posted (a question asked in several places). */
  failOneOfTwo = false;
  attempted: Question | undefined;
  /** When set, Slack's answer to the post (and so attachCard) waits for it. */
  slowPost: Promise<void> | undefined;
  private onPosted: ((q: Question) => void) | undefined;
  readonly posted = new Promise<Question>((resolve) => (this.onPosted = resolve));

  async postQuestion(question: Question): Promise<PostedCards> {
    this.attempted = question;
    if (this.failPosting) throw new RelayError('slack_post_failed', 'channel_not_found');
    this.onPosted?.(question);
    await this.slowPost;
    if (this.failOneOfTwo) {
      return { cards: [{ channel: 'G1', ts: '1.1' }], failure: new RelayError('slack_post_failed', 'no') };
    }
    return { cards: [{ channel: 'D1', ts: '1.1' }] };
  }

  private onEnded: ((q: Question) => void) | undefined;
  readonly firstEnded = new Promise<Question>((resolve) => (this.onEnded = resolve));

  /** The person each ended-card update named. */
  readonly endedBy: (string | undefined)[] = [];
  readonly reminded: Question[] = [];
  private onReminded: ((q: Question) => void) | undefined;
  readonly firstReminded = new Promise<Question>((resolve) => (this.onReminded = resolve));

  remind(question: Question): Promise<void> {
    this.reminded.push(question);
    this.onReminded?.(question);
    return Promise.resolve();
  }

  showEnded(question: Question): Promise<void> {
    this.ended.push(question);
    this.onEnded?.(question);
    return Promise.resolve();
  }

  readonly completed: Question[] = [];
  showUrlCompleted(question: Question): Promise<void> {
    this.completed.push(question);
    return Promise.resolve();
  }

  updateCard(question: Question, change: CardChange): Promise<void> {
    if (change.kind === 'ended') this.endedBy.push(change.byUserId);
    return change.kind === 'ended' ? this.showEnded(question) : this.showUrlCompleted(question);
  }
}

/** A clock whose scheduled work runs when the test fires it, not when time passes. */
export function manualClock(): RelayClock & { fire(): void } {
  const due = new Set<() => void>();
  return {
    now: () => Date.now(),
    schedule: (fn) => {
      due.add(fn);
      return () => due.delete(fn);
    },
    fire: () => [...due].forEach((fn) => fn()),
  };
}
