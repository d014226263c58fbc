// The durable state of a 2026-07-28 input round (MRTR): what a replica needs to send the call again with the
// round's answers, and to deliver its result to where the call came from, when the replica that started the
// call is gone. One record per call in its rounds (a *continuation*); each further `input_required` answer
// replaces its requests and answers and counts the round up.
//
// Claims. The answer that completes a round claims it in the same atomic step (`answer`), so of two answers
// landing on two replicas at once exactly one sees 'claimed' and sends the retry. A claim holds a lease; a
// claimant that dies stops renewing it, and a survivor's `takeOver` claims the round once the lease lapsed
// (or a round whose answers are all in but that nobody claimed). Every write after the claim names the
// claimant, so a claimant that lost its lease (it paused past it) cannot move the round on twice. While the
// round's holder (the replica asking its questions) is alive, only it claims: its call goes on in-process.
// A round that asks nothing (`input_required` with only a `requestState`, which the 2026-07-28 revision allows,
// e.g. for load shedding; the client may retry at once) is recorded too, so the record is always the call's
// current round and its number the count of `input_required` answers: it is complete as recorded, so recording
// it claims its retry for the replica that records it (`open` with a claim, `next`).
//
// Values are opaque here: requests and answers are the JSON the MCP side gives (this folder never imports the
// SDK); `requestState` is kept byte for byte as a string, and a round without one stays without one.
import type { Origin } from '../relay/types.js';

/**
 * How long a round is kept after its deadline, in ms (1 h): its questions time out at the deadline, and
 * their cancels still make a retry (the server says what happens then), which a sweep may have to take over.
 */
export const ROUND_GRACE_MS = 3_600_000;

/** One `inputRequests` entry of a round: its key, the entry as kept, and its question. */
export interface RoundRequest {
  key: string;
  /**
   * The entry as the MCP side keeps it (JSON), an `elicitation/create` request with only the params the relay
   * reads (src/mcp/round-bounds.ts); a round an earlier release wrote holds the entry as the server sent it.
   */
  request: unknown;
  /** The question asked for it, once asked. */
  questionId?: string;
}

/** What a round needs to be sent again: the call, where it came from, and what the server asked. */
export interface NewRound {
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** Who ran the call and where its result goes: `callId` for an API call's record, else the person's run. */
  origin: Origin;
  /** As the server sent it, byte for byte; absent when it sent none. */
  requestState?: string;
  requests: RoundRequest[];
  /** 1 for the call's first `input_required` answer, counted up by each further one. */
  round: number;
  /** Epoch ms after which nobody waits for the round's answers any more; the record goes soon after. */
  deadline: number;
  /**
   * The replica whose call waits for the round's answers (it asked the questions). While its lease (the
   * question store's `lease:<holder>`) lives, only it claims the round's retry; once it is gone, the answer that
   * completes the round claims it on any replica, or a take-over sweep does. Absent: anyone may claim.
   */
  holder?: string;
}

export type RoundStatus = 'waiting' | 'claimed';

export interface Round extends NewRound {
  /** The continuation's id: the same for every round of one call. */
  id: string;
  status: RoundStatus;
  /** The replica retrying the round, while claimed. */
  claimant?: string;
  /** Epoch ms at which the claim lapses unless renewed, while claimed. */
  leaseUntil?: number;
  /** The answers recorded so far, by request key (the first answer to a key is the one kept). */
  answers: Record<string, unknown>;
}

/**
 * What recording an answer did: 'claimed' = it was the round's last missing answer and this caller now holds
 * the retry (only the round's holder, or anyone once the holder is gone); 'recorded' = kept (or the key was already answered), the round waits for more or is already
 * claimed; 'stale' = the round has moved on (its number differs) or the key is not one of its requests;
 * 'missing' = no such continuation (finished, or expired).
 */
export type AnswerRecorded = 'claimed' | 'recorded' | 'stale' | 'missing';

/** A claim: who holds it, when (epoch ms, the caller's clock) and for how long (ms). */
export interface Claim {
  claimant: string;
  now: number;
  leaseMs: number;
}

/** The next round of a claimed continuation: the server answered the retry with `input_required` again. */
export interface NextRound {
  requestState?: string;
  requests: RoundRequest[];
  deadline: number;
}

/** Where rounds live: Redis (RedisRoundStore) or one process (MemoryRoundStore), one contract for both. */
export interface RoundStore {
  /**
   * Records a call's first round, waiting for answers; one that asks nothing is complete as recorded, so with
   * `claim` it is recorded claimed by it (its recorder sends the retry at once), without one it waits for a
   * take-over.
   */
  open(round: NewRound, claim?: Claim): Promise<Round>;
  get(id: string): Promise<Round | undefined>;
  /** Notes the question asked for request `key` of round `round`; false when the round moved on or is gone. */
  attachQuestion(id: string, round: number, key: string, questionId: string): Promise<boolean>;
  /**
   * Records the answer to request `key` of round `round`; claims the retry when it was the last (see above).
   * Without `claim` it only records: the round's own holder recording an end its waiting call records too.
   */
  answer(
    id: string,
    round: number,
    key: string,
    answer: unknown,
    claim: Claim | undefined,
  ): Promise<AnswerRecorded>;
  /**
   * Claims every round whose claim lapsed, or whose answers are all in, nobody claimed it and its holder is
   * gone (never a round `claim.claimant` holds: it is alive, sweeping); returns them. A claimed round whose record
   * cannot be read (StoreError 'bad_record': a part evicted, foreign JSON) is told to `unreadable` and left out,
   * so it does not keep the sweep from the rounds after it.
   */
  takeOver(claim: Claim, unreadable?: (id: string, error: unknown) => void): Promise<Round[]>;
  /** Extends `claimant`'s lease; false when it no longer holds the claim. */
  renew(id: string, claim: Claim): Promise<boolean>;
  /**
   * The retry asked again: the next round waits for answers (the old answers go), held by `claim.claimant`;
   * one that asks nothing is claimed by `claim` at once (its lease from `claim.now`). False unless
   * `claim.claimant` holds the claim.
   */
  next(id: string, claim: Claim, next: NextRound): Promise<boolean>;
  /**
   * The call ended (result or failure): the continuation goes. False unless `claimant` holds the claim, or is
   * the holder of the round while it waits (its call failed while asking).
   */
  finish(id: string, claimant: string): Promise<boolean>;
  /**
   * The open round of the API call `callId` (its origin's `callId`), if any: such a call waits for it (a
   * survivor resumes it), so the call sweep leaves the call alone.
   */
  ofCall(callId: string): Promise<Round | undefined>;
}
