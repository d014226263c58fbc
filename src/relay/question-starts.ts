// How the relay starts a question: the person's turn (turns.ts: a few questions at once, a person's first two
// before anyone's later ones), then the record stored with its reminder times (the server's policy, else one at
// half time, reminders.ts) and a URL question's link remembered (url-questions.ts). The caller ends the turn once
// the question's cards are queued.
import type { RelayOptions } from './options.js';
import type { RateLimit } from './ports.js';
import { reminderTimes } from './reminders.js';
import { DEFAULT_STARTS_AT_ONCE, Turns, type EndTurn } from './turns.js';
import type { NewQuestion, Question } from './types.js';
import type { UrlQuestions } from './url-questions.js';

export class QuestionStarts {
  private readonly turns: Turns;

  constructor(
    private readonly options: Pick<RelayOptions, 'store' | 'reminderTimes' | 'clock' | 'startsAtOnce'>,
    private readonly urls: UrlQuestions,
  ) {
    this.turns = new Turns(options.startsAtOnce ?? DEFAULT_STARTS_AT_ONCE, options.clock.schedule);
  }

  /** Waits for `userId`'s turn at starting a question. */
  turn(userId: string): Promise<EndTurn> {
    return this.turns.take(userId);
  }

  /** Stores a new question with its reminders (the server's policy, else one at half time). */
  async create(fields: NewQuestion, rateLimit?: RateLimit): Promise<Question> {
    const remindAt = (this.options.reminderTimes ?? defaultReminders)(
      fields.timeoutMs,
      this.options.clock.now(),
      fields.server,
    );
    return await this.options.store.create(fields, { ...(rateLimit ? { rateLimit } : {}), remindAt });
  }

  /**
   * Takes the person's turn and stores the question; undefined when the ask was withdrawn while it waited. The
   * caller ends the turn once the question's cards are queued.
   */
  async start(
    fields: NewQuestion,
    signal: AbortSignal,
    rateLimit?: RateLimit,
  ): Promise<{ question: Question; endTurn: EndTurn } | undefined> {
    const endTurn = await this.turn(fields.userId);
    try {
      if (signal.aborted) {
        endTurn();
        return undefined;
      }
      const question = await this.create(fields, rateLimit);
      await this.urls.remember(question);
      return { question, endTurn };
    } catch (error) {
      endTurn();
      throw error;
    }
  }
}

/** No server policy: the default nudge (see reminderTimes). */
const defaultReminders = (timeoutMs: number, now: number): number[] =>
  reminderTimes(undefined, timeoutMs, now);
