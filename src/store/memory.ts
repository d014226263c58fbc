// The relay's store in memory, for tests and a single process: the same contract as the Redis QuestionStore
// (test/store/relay-store.contract.ts runs against both). Several MemoryRelayStore instances over one
// MemoryBackend behave as replicas over one Redis: one transition wins, outcomes go to the holder's inbox.
// No timers: timeouts and reminders are the Redis store's BullMQ jobs, and a test drives them by calling finish.
import { randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';
import type { CreateOptions, RateLimit, RelayStore } from '../relay/relay.js';
import type { RoundLink, RoundLinkStore } from '../relay/round-links.js';
import type {
  Attached,
  CardRef,
  Draft,
  EndReason,
  FinishResult,
  NewQuestion,
  Outcome,
  Question,
  QuestionState,
} from '../relay/types.js';
import { RateLimitedError } from './errors.js';
import { keepsContent, type StoredQuestion } from './record.js';

const STATE_OF: Record<Outcome['action'], Exclude<QuestionState, 'pending'>> = {
  accept: 'accepted',
  decline: 'declined',
  cancel: 'cancelled',
};

type Deliver = (question: Question) => void;

/** What replicas share: the questions, each holder's undelivered outcomes and inbox, the rate windows. */
export class MemoryBackend {
  readonly questions = new Map<string, StoredQuestion>();
  /** Each person's draft of a pending question's form, by question id and user id. */
  readonly drafts = new Map<string, Map<string, Draft>>();
  readonly undelivered = new Map<string, string[]>();
  readonly inboxes = new Map<string, Deliver>();
  /** Per server: when its current window ends (epoch ms) and how many questions it admitted in it. */
  readonly windows = new Map<string, { endsAt: number; count: number }>();
  /** Questions whose cards were attached after they ended (their attacher, not the winner, updates them). */
  readonly cardAfterEnd = new Set<string>();
  /** Accepted questions whose holder has the answer while their card's attacher has not drawn it yet. */
  readonly dropAfterCard = new Set<string>();
  /** Accepted questions whose card's attacher drew the end before their holder had the answer. */
  readonly endShown = new Set<string>();

  constructor(readonly clock: Clock = systemClock) {}
}

export class MemoryRelayStore implements RelayStore {
  constructor(
    private readonly backend: MemoryBackend,
    private readonly holderId: string,
  ) {}

  create(q: NewQuestion, opts: CreateOptions = {}): Promise<Question> {
    const { clock, questions } = this.backend;
    const refused = opts.rateLimit && this.admit(q.server, opts.rateLimit);
    if (refused) return Promise.reject(refused);
    const createdAt = clock.now();
    const question: Question = {
      ...structuredClone(q),
      id: randomBytes(15).toString('base64url'),
      state: 'pending',
      holder: this.holderId,
      createdAt,
      deadline: createdAt + q.timeoutMs,
    };
    questions.set(question.id, question);
    return Promise.resolve(structuredClone(question));
  }

  get(id: string): Promise<StoredQuestion | undefined> {
    const question = this.backend.questions.get(id);
    return Promise.resolve(question && structuredClone(question));
  }

  /**
   * Records the posted cards and answers the question's state; 'missing' (and nothing kept) when it does not
   * exist; 'ended_with_card' when it ended with these cards already attached (ATTACH_CARD_LUA).
   */
  attachCards(id: string, [card, ...more]: [CardRef, ...CardRef[]]): Promise<Attached> {
    const { questions, cardAfterEnd } = this.backend;
    const question = questions.get(id);
    if (!question) return Promise.resolve('missing');
    const ended = question.state !== 'pending';
    if (ended && !question.card) cardAfterEnd.add(id);
    question.card = { ...card };
    if (more.length > 0) question.moreCards = more.map((other) => ({ ...other }));
    return Promise.resolve(ended && !cardAfterEnd.has(id) ? 'ended_with_card' : question.state);
  }

  /** The attacher drew the end: the content kept for it goes, now or at the holder's delivery (CARD_END_SHOWN_LUA). */
  endShownOnCards(id: string): Promise<void> {
    const question = this.backend.questions.get(id);
    if (question?.state !== 'accepted') return Promise.resolve();
    if (this.backend.dropAfterCard.delete(id)) dropContent(question);
    else this.backend.endShown.add(id);
    return Promise.resolve();
  }

  /** One person's draft of the question's form, when they have one. */
  draft(id: string, userId: string): Promise<Draft | undefined> {
    const draft = this.backend.drafts.get(id)?.get(userId);
    return Promise.resolve(draft && structuredClone(draft));
  }

  /** Keeps one person's draft; false when the question is not pending. */
  saveDraft(id: string, userId: string, draft: Draft): Promise<boolean> {
    const { questions, drafts } = this.backend;
    if (questions.get(id)?.state !== 'pending') return Promise.resolve(false);
    const ofQuestion = drafts.get(id) ?? new Map<string, Draft>();
    ofQuestion.set(userId, structuredClone(draft));
    drafts.set(id, ofQuestion);
    return Promise.resolve(true);
  }

  /** Ends a pending question exactly once (the event loop makes the check and the write one step). */
  finish(id: string, outcome: Outcome, reason: EndReason, endedBy?: string): Promise<FinishResult> {
    const question = this.backend.questions.get(id);
    if (!question) return Promise.resolve({ won: false, state: 'missing' });
    if (question.state !== 'pending') {
      return Promise.resolve({ won: false, state: question.state, question: structuredClone(question) });
    }
    question.state = STATE_OF[outcome.action];
    question.outcome = structuredClone(outcome);
    question.reason = reason;
    question.endedAt = this.backend.clock.now();
    if (endedBy !== undefined) question.endedBy = endedBy;
    this.backend.drafts.delete(id);
    this.enqueue(question);
    return Promise.resolve({ won: true, question: structuredClone(question) });
  }

  /** Hands this holder's finished questions to onOutcome, once each: first those that ended meanwhile. */
  startInbox(onOutcome: (question: Question) => void): Promise<void> {
    this.backend.inboxes.set(this.holderId, onOutcome);
    this.flush(this.holderId);
    return Promise.resolve();
  }

  /** Stops this holder's inbox; outcomes that arrive meanwhile wait for the next startInbox. */
  close(): Promise<void> {
    this.backend.inboxes.delete(this.holderId);
    return Promise.resolve();
  }

  /** Fixed window per server, starting with its first question, as the Redis store's ADMIT script. */
  private admit(server: string, limit: RateLimit): RateLimitedError | undefined {
    const now = this.backend.clock.now();
    const current = this.backend.windows.get(server);
    const window = current && current.endsAt > now ? current : { endsAt: now + limit.perMs, count: 0 };
    window.count += 1;
    this.backend.windows.set(server, window);
    return window.count > limit.max
      ? new RateLimitedError(server, window.endsAt - now, limit.max)
      : undefined;
  }

  private enqueue(question: Question): void {
    const { undelivered, clock } = this.backend;
    undelivered.set(question.holder, [...(undelivered.get(question.holder) ?? []), question.id]);
    // Later, as the Redis inbox's read loop would: the finishing caller gets its result first.
    clock.schedule(() => this.flush(question.holder), 0);
  }

  /** The holder has an accepted answer: its content goes unless the card's attacher has yet to draw it. */
  private acknowledged(question: StoredQuestion): void {
    const { cardAfterEnd, endShown, dropAfterCard } = this.backend;
    const attacherDraws = !question.card || (cardAfterEnd.has(question.id) && !endShown.has(question.id));
    if (attacherDraws) dropAfterCard.add(question.id);
    else dropContent(question);
  }

  private flush(holder: string): void {
    const deliver = this.backend.inboxes.get(holder);
    const ids = this.backend.undelivered.get(holder) ?? [];
    if (!deliver || ids.length === 0) return;
    this.backend.undelivered.delete(holder);
    for (const id of ids) {
      const question = this.backend.questions.get(id);
      if (!question) continue;
      const handed = structuredClone(question);
      // Once in the holder's hands, and on the card, the content is no longer kept (as INBOX_ACK_LUA decides).
      if (question.outcome?.action === 'accept' && !keepsContent(question)) this.acknowledged(question);
      deliver(handed);
    }
  }
}

/** What the record keeps of an accepted answer once its content is no longer needed. */
function dropContent(question: StoredQuestion): void {
  question.outcome = { action: 'accept', content: {} };
  question.contentDropped = true;
}

/** The latest question of each 2026 URL request in one process (RedisRoundLinks' contract; nothing expires). */
export class MemoryRoundLinks implements RoundLinkStore {
  private readonly latestIds = new Map<string, string>();

  note(link: RoundLink, questionId: string): Promise<void> {
    this.latestIds.set(linkKey(link), questionId);
    return Promise.resolve();
  }

  latest(link: RoundLink): Promise<string | undefined> {
    return Promise.resolve(this.latestIds.get(linkKey(link)));
  }

  settle(link: RoundLink): Promise<string | undefined> {
    const id = this.latestIds.get(linkKey(link));
    this.latestIds.delete(linkKey(link));
    return Promise.resolve(id);
  }
}

const linkKey = (link: RoundLink): string => `${link.server}\u0000${link.elicitationId}`;
