// Records a round question's end in its round on whichever replica reads it off the ended stream (the
// `rounds` consumer group, one replica per end, at least once): so a round's answers are all recorded even
// when the replica that asked them (the round's holder) died before they came. The first answer per key is
// kept, so a repeat, or the holder recording the same answer from its inbox, changes nothing. The answer that
// completes the round claims its retry here only once the holder is gone (the store decides, atomically);
// this replica then resumes the call as the take-over sweep does. A holder alive claims it itself, through
// its waiting call, never through its own recorder or take-over sweep.
import type { Question } from '../relay/types.js';
import type { RelayClock } from '../relay/relay.js';
import { ROUND_LEASE_MS } from './keeper.js';
import { resumedCall, type ResumedCall } from './take-over.js';
import type { RoundRequest, RoundStore } from './types.js';

/** The part of an ended-stream event this reads (src/api EndedEvent). */
export interface EndedRoundQuestion {
  id: string;
  kind: 'question' | 'call';
  /** Set when the question answers a durable round's request. */
  round?: true;
}

export interface RecorderOptions {
  store: RoundStore;
  /** This replica's holder id. */
  claimant: string;
  clock: Pick<RelayClock, 'now'>;
  leaseMs?: number;
  /** The question as stored (its outcome, content kept for round questions). */
  question: (id: string) => Promise<Question | undefined>;
  /**
   * The answers a round keeps for a question's outcome, by key, given the question's requests as recorded (the
   * MCP side's ElicitResults; a combined form's answer split per request). May throw for requests it cannot read.
   */
  answersOf: (question: Question, requests: RoundRequest[]) => [string, unknown][];
  /** Sends the call again from its claimed round (its result posted where the run was). */
  resume: (call: ResumedCall) => Promise<unknown>;
  logger: { warn(obj: object, msg: string): void };
}

/** The handler of the ended stream's `rounds` group; rejects only when Redis fails (the end is read again). */
export function roundRecorder(opts: RecorderOptions): (event: EndedRoundQuestion) => Promise<void> {
  return async (event) => {
    if (event.kind !== 'question' || event.round !== true) return;
    const question = await opts.question(event.id);
    const ref = question?.round;
    if (question?.outcome === undefined || ref === undefined) return;
    const asked = await opts.store.get(ref.id);
    // Gone (finished, expired) or moved on: nothing of this round waits for the answer.
    if (asked?.round !== ref.round) return;
    const requests = asked.requests.filter((request) => ref.keys.includes(request.key));
    // On the round's own holder only record: its call waits on these ends (its inbox) and claims the retry
    // itself. A claim here would take the retry from that call, which then fails ("no longer this replica's")
    // and finishes, deleting, the round while this claim's retry is out: the answers lost. Stopping, the
    // holder's call waits on unanswered, and a survivor's take-over claims once the holder's lease is gone.
    const claim =
      asked.holder === opts.claimant
        ? undefined
        : { claimant: opts.claimant, now: opts.clock.now(), leaseMs: opts.leaseMs ?? ROUND_LEASE_MS };
    let claimed = false;
    for (const [key, answer] of answersOf(opts, question, requests)) {
      if ((await opts.store.answer(ref.id, ref.round, key, answer, claim)) === 'claimed') claimed = true;
    }
    const round = claimed ? await opts.store.get(ref.id) : undefined;
    if (round === undefined) return;
    // Not awaited: the retry (and any further rounds) may take long, and the end is acknowledged meanwhile.
    // Should this replica die, its claim lapses and a take-over sweep resumes the round.
    void opts.resume(resumedCall(round)).catch((err: unknown) => {
      opts.logger.warn({ err, round: round.id }, 'completed round not resumed');
    });
  };
}

/** The question's answers; none (logged) when its requests cannot be read: its holder or deadline ends the round. */
function answersOf(opts: RecorderOptions, question: Question, requests: RoundRequest[]): [string, unknown][] {
  try {
    return opts.answersOf(question, requests);
  } catch (err) {
    opts.logger.warn(
      { err, question: question.id },
      'round answer not recorded: its requests cannot be read',
    );
    return [];
  }
}
