// The one owner of "a person answered": reads the question and the person's draft, decides (decide.ts), then
// acts: stores the draft or ends the question through Relay.end, and replies exactly once.
//
// The reply must reach Slack within its 3 s window whatever Redis does: when no reply is ready within
// `replyWithinMs` (Redis down or hung, a slow answerer check), the person is told that nothing was recorded,
// and from then on this act writes nothing, so "not recorded" stays true and a retry ends the question once.
// Once the act's write (draft or end) has gone to Redis it can no longer be called back: a reply due then says
// the act may not have been recorded ('unconfirmed'), since Redis may still apply it (a finish slowed by a
// restarting Redis did, after the person had been told "NOT saved": answer-outage under load). A write Redis
// refused before running it (out of memory: StoreError 'redis_out_of_memory'; a replica's READONLY after a
// failover, CLUSTERDOWN, TRYAGAIN...: 'redis_try_again') is known not to be recorded, so the person is told "not
// saved, try again" as before any write, not "may not have been saved".
import type { Locale } from '../../blocks/index.js';
import type { PatternSender, PatternTimeouts } from '../pattern-timeouts.js';
import { relayErrorCode } from '../relay/errors.js';
import type { Relay, RelayClock, RelayStore } from '../relay/relay.js';
import type { Draft, FinishResult, Question } from '../relay/types.js';
import {
  decide,
  refusalBeforeMembership,
  uncheckedRefusal,
  type Act,
  type Actor,
  type AnswerPolicy,
  type Decision,
  type FieldErrors,
  type Refusal,
  type Situation,
} from './decide.js';

/** What the person is answered: the decision once carried out. */
export type Reply =
  | { kind: 'refuse'; refusal: Refusal }
  | { kind: 'ignore' }
  | { kind: 'page'; question: Question; draft: Draft; errors?: FieldErrors }
  | { kind: 'errors'; errors: FieldErrors }
  | { kind: 'review'; question: Question; draft: Draft }
  | { kind: 'finished'; question: Question }
  /** Nothing was recorded (Redis did not answer in time, failed, or refused the write unrun): try again. */
  | { kind: 'not_recorded' }
  /** The act's write went to Redis but its result did not come back in time (or failed): it may have been
   * recorded. Trying again either records it or finds it recorded. */
  | { kind: 'unconfirmed' };

/**
 * The store's codes for a write Redis refused before running it (src/redis StoreErrorCode): for memory, or for a
 * passing state of its topology (READONLY, CLUSTERDOWN, TRYAGAIN...).
 */
const REFUSED_UNRUN: ReadonlySet<string | undefined> = new Set(['redis_out_of_memory', 'redis_try_again']);

/** Longest wait for a reply before the person is told nothing was recorded, in ms (Slack allows 3000). */
export const REPLY_WITHIN_MS = 1_500;

export interface AnsweringOptions {
  store: Pick<RelayStore, 'get' | 'draft' | 'saveDraft'>;
  relay: Pick<Relay, 'end'>;
  /** Whether a user is among a question's answerers (may ask Slack for channel or group members). */
  mayAnswer: (question: Question, userId: string) => Promise<boolean>;
  policyOf: (server: string) => AnswerPolicy;
  clock: RelayClock;
  /** Default REPLY_WITHIN_MS. */
  replyWithinMs?: number;
  /** Told of each pattern of the question's sender that ran out of time against an answer (logged). */
  patterns: Pick<PatternTimeouts, 'within'>;
}

export interface ActOptions {
  /** Language of field errors; a lookup still under way is awaited beside the question's reads. */
  locale?: Locale | Promise<Locale>;
  /** Called exactly once with the outcome (for an ending act: after the transition, before the card update). */
  reply: (reply: Reply) => Promise<void>;
}

export class Answering {
  constructor(private readonly options: AnsweringOptions) {}

  /** The question `id` when this actor may answer it now, or why not (for acts that only read it). */
  async answerable(id: string, actor: Actor): Promise<{ question: Question } | { refusal: Refusal }> {
    const question = await this.options.store.get(id);
    const refusal = refusalBeforeMembership(question, actor, this.options.clock.now());
    if (refusal || !question) return { refusal: refusal ?? { ended: 'missing' } };
    const may = await this.checkAnswerer(question, actor);
    if (may === 'unchecked') return { refusal: uncheckedRefusal(question) };
    return may ? { question } : { refusal: { notFor: question } };
  }

  /** Carries out the actor's act on question `id`; errors after the reply are rethrown for the caller to log. */
  async act(id: string, actor: Actor, act: Act, options: ActOptions): Promise<void> {
    const reply = new OnceReply(options.reply);
    // The timer's reply has no caller to fail to: its failure is kept and passed on by this act below.
    const cancel = this.options.clock.schedule(
      () => void reply.send(reply.unknown()).catch(() => undefined),
      this.options.replyWithinMs ?? REPLY_WITHIN_MS,
    );
    try {
      await this.carryOut(id, actor, act, options.locale, reply);
      await reply.delivery;
    } catch (error) {
      if (reply.sent) throw error;
      await reply.send(reply.unknown(error));
      throw error;
    } finally {
      cancel();
    }
  }

  private async carryOut(
    id: string,
    actor: Actor,
    act: Act,
    locale: Locale | Promise<Locale> | undefined,
    reply: OnceReply,
  ): Promise<void> {
    const situation = await this.situation(id, actor, act, locale);
    const { question } = situation;
    const decision = question
      ? this.options.patterns.within(senderOf(question), () => decide(situation))
      : decide(situation);
    // Past the reply bound the person was told nothing was recorded: keep it true.
    if (reply.sent) return;
    // decide refuses a missing question too; this only tells TypeScript.
    if (!question) return reply.send({ kind: 'refuse', refusal: { ended: 'missing' } });
    switch (decision.kind) {
      case 'refuse':
      case 'ignore':
      case 'errors':
        return reply.send(decision);
      case 'page':
      case 'review': {
        reply.writing = true;
        const saved = await this.options.store.saveDraft(question.id, actor.user.id, decision.draft);
        return reply.send(
          saved ? { ...decision, question } : { kind: 'refuse', refusal: { ended: 'missing' } },
        );
      }
      case 'finish':
        return this.finish(question.id, actor.user.id, decision, reply);
    }
  }

  /** Ends the question with the decision's outcome, replying before its card is updated. */
  private async finish(
    id: string,
    byUserId: string,
    decision: Extract<Decision, { kind: 'finish' }>,
    reply: OnceReply,
  ): Promise<void> {
    reply.writing = true;
    await this.options.relay.end(id, decision.outcome, decision.reason, {
      byUserId,
      // A win with another reason is not this act's: its holder had died (the store ended it holder_lost).
      beforeCard: (result) =>
        reply.send(
          result.won && result.question.reason === decision.reason
            ? { kind: 'finished', question: result.question }
            : { kind: 'refuse', refusal: endedRefusal(result) },
        ),
    });
  }

  private async situation(
    id: string,
    actor: Actor,
    act: Act,
    localeLookup: Locale | Promise<Locale> | undefined,
  ): Promise<Situation> {
    const { store, policyOf } = this.options;
    // The draft is read beside the question, not after it: one Redis round trip before the ack instead of two
    // (a URL question, or an act refused before membership, reads it for nothing).
    const [question, locale, stored] = await Promise.all([
      store.get(id),
      localeLookup,
      store.draft(id, actor.user.id),
    ]);
    // Each situation is one literal, not { ...base, more }: V8 (Node 20) adds keys the spread source lacks to
    // the clone slowly, ~5 us per key on the 2-core machine (issue #19 goal 6: CPU per submission).
    const withLocale = locale ? { locale } : {};
    const now = this.options.clock.now();
    if (!question || refusalBeforeMembership(question, actor, now)) {
      const policy = { review: 'never', onClose: 'cancel' } as const;
      return { question, actor, act, mayAnswer: false, draft: undefined, policy, now, ...withLocale };
    }
    const may = await this.checkAnswerer(question, actor);
    const draft = question.url ? undefined : stored;
    const policy = policyOf(question.server);
    return { question, actor, act, mayAnswer: may, draft, policy, now, ...withLocale };
  }

  /**
   * Whether the actor may answer; 'unchecked' when the question's channel can no longer be listed (Slack
   * refuses it for good: RelayError 'channel_unlistable'), which no retry changes. A passing failure rejects.
   */
  private async checkAnswerer(question: Question, actor: Actor): Promise<Situation['mayAnswer']> {
    try {
      return await this.options.mayAnswer(question, actor.user.id);
    } catch (error) {
      if (relayErrorCode(error) === 'channel_unlistable') return 'unchecked';
      throw error;
    }
  }
}

/** Whose form a question is: its API client's, or its MCP server's. */
function senderOf(question: Question): PatternSender {
  return question.client === undefined ? { server: question.server } : { client: question.client };
}

/** A reply function that runs once; later calls do nothing. */
class OnceReply {
  sent = false;
  /** The act's write was sent to Redis: from then on a reply without its result cannot say "not recorded". */
  writing = false;
  /** The one delivery, once sent (rejected if it failed). */
  delivery: Promise<void> | undefined;

  constructor(private readonly deliver: (reply: Reply) => Promise<void>) {}

  /**
   * The reply when the act's own result is not known: not recorded, or unconfirmed once a write was sent, unless
   * its `failure` says Redis refused the write unrun (REFUSED_UNRUN, by Redis's reply code; not a lost connection).
   */
  unknown(failure?: unknown): Reply {
    const refusedUnrun = REFUSED_UNRUN.has(relayErrorCode(failure));
    return this.writing && !refusedUnrun ? { kind: 'unconfirmed' } : { kind: 'not_recorded' };
  }

  async send(reply: Reply): Promise<void> {
    if (this.sent) return;
    this.sent = true;
    this.delivery = this.deliver(reply);
    await this.delivery;
  }
}

/** Why an act that ended nothing of its own changed nothing: the state the question is in, and why it ended. */
function endedRefusal(result: FinishResult): Refusal {
  const state = result.won ? result.question.state : result.state;
  const { reason, endedBy } = result.question ?? {};
  return { ended: state, ...(reason === undefined ? {} : { reason }), ...(endedBy ? { by: endedBy } : {}) };
}
