// Rounds in one process, for tests and the sandbox without Redis: the RoundStore contract, with every step
// atomic because each runs without awaiting. Several stores may share one MemoryRounds, as replicas share Redis.
import { randomBytes } from 'node:crypto';
import type { AnswerRecorded, Claim, NewRound, NextRound, Round, RoundRequest, RoundStore } from './types.js';
import { ROUND_GRACE_MS } from './types.js';

/** The state several MemoryRoundStores share (one deployment). */
export class MemoryRounds {
  readonly rounds = new Map<string, Round>();
  /** The holders whose lease lives (the question store's `lease:<holder>` in Redis). */
  readonly alive = new Set<string>();
}

export class MemoryRoundStore implements RoundStore {
  constructor(private readonly shared = new MemoryRounds()) {}

  open(round: NewRound, claim?: Claim): Promise<Round> {
    const id = `round_${randomBytes(15).toString('base64url')}`;
    const stored: Round = { ...copy(round), id, status: 'waiting', answers: {} };
    if (claim !== undefined && round.requests.length === 0) claimFor(stored, claim);
    this.shared.rounds.set(id, stored);
    return Promise.resolve(copy(stored));
  }

  get(id: string): Promise<Round | undefined> {
    const round = this.live(id);
    return Promise.resolve(round === undefined ? undefined : copy(round));
  }

  attachQuestion(id: string, round: number, key: string, questionId: string): Promise<boolean> {
    const request = this.requestOf(id, round, key);
    if (request !== undefined) request.questionId = questionId;
    return Promise.resolve(request !== undefined);
  }

  answer(
    id: string,
    round: number,
    key: string,
    answer: unknown,
    claim: Claim | undefined,
  ): Promise<AnswerRecorded> {
    const stored = this.live(id);
    if (stored === undefined) return Promise.resolve('missing');
    if (this.requestOf(id, round, key) === undefined) return Promise.resolve('stale');
    if (!Object.hasOwn(stored.answers, key)) keep(stored.answers, key, copy(answer));
    if (stored.status !== 'waiting' || !allAnswered(stored)) return Promise.resolve('recorded');
    if (claim === undefined || this.holderAlive(stored, claim.claimant)) return Promise.resolve('recorded');
    claimFor(stored, claim);
    return Promise.resolve('claimed');
  }

  takeOver(claim: Claim): Promise<Round[]> {
    const taken: Round[] = [];
    for (const id of [...this.shared.rounds.keys()]) {
      const stored = this.live(id);
      if (stored === undefined || !claimable(stored, claim.now)) continue;
      const waiting = stored.status === 'waiting';
      if (waiting && (stored.holder === claim.claimant || this.holderAlive(stored, claim.claimant))) continue;
      claimFor(stored, claim);
      taken.push(copy(stored));
    }
    return Promise.resolve(taken);
  }

  renew(id: string, claim: Claim): Promise<boolean> {
    const stored = this.held(id, claim.claimant);
    if (stored !== undefined) stored.leaseUntil = claim.now + claim.leaseMs;
    return Promise.resolve(stored !== undefined);
  }

  next(id: string, claim: Claim, next: NextRound): Promise<boolean> {
    const { claimant } = claim;
    const stored = this.held(id, claimant);
    if (stored === undefined) return Promise.resolve(false);
    const { requestState, requests, deadline } = copy(next);
    const { server, tool, args, origin } = stored;
    const waiting: Round = {
      id,
      server,
      tool,
      args,
      origin,
      ...(requestState === undefined ? {} : { requestState }),
      requests,
      deadline,
      round: stored.round + 1,
      holder: claimant,
      status: 'waiting',
      answers: {},
    };
    // Asking nothing, it is complete as recorded: its retry is the recorder's to send at once.
    if (requests.length === 0) claimFor(waiting, claim);
    this.shared.rounds.set(id, waiting);
    return Promise.resolve(true);
  }

  finish(id: string, claimant: string): Promise<boolean> {
    const stored = this.live(id);
    const asking = stored?.status === 'waiting' && stored.holder === claimant;
    const held = asking || this.held(id, claimant) !== undefined;
    if (held) this.shared.rounds.delete(id);
    return Promise.resolve(held);
  }

  ofCall(callId: string): Promise<Round | undefined> {
    const ids = [...this.shared.rounds.keys()];
    const found = ids.map((id) => this.live(id)).find((round) => round?.origin.callId === callId);
    return Promise.resolve(found === undefined ? undefined : copy(found));
  }

  /** A round past its deadline plus the grace is gone, as its Redis keys expire. */
  private live(id: string): Round | undefined {
    const stored = this.shared.rounds.get(id);
    if (stored !== undefined && stored.deadline + ROUND_GRACE_MS <= Date.now()) {
      this.shared.rounds.delete(id);
      return undefined;
    }
    return stored;
  }

  private requestOf(id: string, round: number, key: string): RoundRequest | undefined {
    const stored = this.live(id);
    if (stored?.round !== round) return undefined;
    return stored.requests.find((request) => request.key === key);
  }

  /** A holder other than `claimant` that is alive claims its round itself. */
  private holderAlive(round: Round, claimant: string): boolean {
    return round.holder !== undefined && round.holder !== claimant && this.shared.alive.has(round.holder);
  }

  private held(id: string, claimant: string): Round | undefined {
    const stored = this.live(id);
    return stored?.status === 'claimed' && stored.claimant === claimant ? stored : undefined;
  }
}

/**
 * Own keys only: a request key is the server's string, and "constructor" or "__proto__" is `in` every object
 * (the round would claim with those unanswered, and a survivor's retry would lack their answers).
 */
const allAnswered = (round: Round): boolean =>
  round.requests.every((r) => Object.hasOwn(round.answers, r.key));

/** Sets `key` as an own property, whatever its name: an assignment to "__proto__" would set the prototype. */
function keep(answers: Record<string, unknown>, key: string, answer: unknown): void {
  Object.defineProperty(answers, key, {
    value: answer,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function claimable(round: Round, now: number): boolean {
  if (round.status === 'waiting') return allAnswered(round);
  return (round.leaseUntil ?? 0) <= now;
}

function claimFor(round: Round, claim: Claim): void {
  round.status = 'claimed';
  round.claimant = claim.claimant;
  round.leaseUntil = claim.now + claim.leaseMs;
}

/** A deep copy of JSON data, so callers never share the stored objects. */
function copy<T>(value: T): T {
  return structuredClone(value);
}
