// Rounds in Redis (key families `round:<id>`, `round:<id>:requests`, `round:<id>:answers`, `rounds:open` in
// redis/layout.ts, all under the `{q}` hash tag so each script's keys share a Cluster slot). Every step that
// reads and writes is one Lua script (redis-scripts.ts), so two replicas recording the last two answers at once
// claim the retry once. The round hash holds the call (JSON fields), `requestState` (present only when the
// server sent one; see redis-record.ts for `requestStateJson`), the round number, status, holder, claimant,
// lease and each request's question (`question:<key>`); the requests hash maps key → the entry's JSON, the
// answers hash key → the answer's JSON. All expire ROUND_GRACE_MS after the deadline.
import { randomBytes } from 'node:crypto';
import { StoreError, type Keys, type RedisClient } from '../redis/index.js';
import { originOf, parseRound, requestStateFields } from './redis-record.js';
import { ANSWER_LUA, ATTACH_LUA, FINISH_LUA, NEXT_LUA, RENEW_LUA, TAKE_OVER_LUA } from './redis-scripts.js';
import {
  ROUND_GRACE_MS,
  type AnswerRecorded,
  type Claim,
  type NewRound,
  type NextRound,
  type Round,
  type RoundRequest,
  type RoundStore,
} from './types.js';

export interface RedisRoundStoreOptions {
  /** A command connection from the deployment's RedisConnections. */
  redis: RedisClient;
  keys: Keys;
}

export class RedisRoundStore implements RoundStore {
  constructor(private readonly opts: RedisRoundStoreOptions) {}

  async open(round: NewRound, claim?: Claim): Promise<Round> {
    const { redis, keys } = this.opts;
    const id = `round_${randomBytes(15).toString('base64url')}`;
    // A round that asks nothing is complete as recorded: its claimant sends the retry at once.
    const claimed = claim !== undefined && round.requests.length === 0 ? claimFields(claim) : undefined;
    const fields = {
      server: round.server,
      tool: round.tool,
      args: JSON.stringify(round.args),
      origin: JSON.stringify(round.origin),
      round: round.round,
      deadline: round.deadline,
      status: 'waiting',
      order: JSON.stringify(round.requests.map((request) => request.key)),
      ...requestStateFields(round.requestState),
      ...(round.holder === undefined ? {} : { holder: round.holder }),
      ...questionFields(round.requests),
      ...claimed,
    };
    const expireAt = round.deadline + ROUND_GRACE_MS;
    const write = redis.multi().hset(keys.round(id), fields).pexpireat(keys.round(id), expireAt);
    // A round may ask nothing (the spec lets the client retry at once); HSET refuses an empty hash.
    if (round.requests.length > 0) {
      write
        .hset(keys.roundRequests(id), requestFields(round.requests))
        .pexpireat(keys.roundRequests(id), expireAt);
    }
    await write.zadd(keys.openRounds, round.deadline, id).exec();
    return { ...structuredClone(round), id, status: 'waiting', answers: {}, ...claimed };
  }

  async get(id: string): Promise<Round | undefined> {
    const { redis, keys } = this.opts;
    const [hash, requests, answers] = await Promise.all([
      redis.hgetall(keys.round(id)),
      redis.hgetall(keys.roundRequests(id)),
      redis.hgetall(keys.roundAnswers(id)),
    ]);
    return parseRound(id, hash, requests, answers);
  }

  async attachQuestion(id: string, round: number, key: string, questionId: string): Promise<boolean> {
    const { redis, keys } = this.opts;
    const done = await redis.eval(
      ATTACH_LUA,
      2,
      keys.round(id),
      keys.roundRequests(id),
      round,
      key,
      questionId,
    );
    return done === 1;
  }

  async answer(
    id: string,
    round: number,
    key: string,
    answer: unknown,
    claim: Claim | undefined,
  ): Promise<AnswerRecorded> {
    const { redis, keys } = this.opts;
    const recorded = await redis.eval(
      ANSWER_LUA,
      3,
      keys.round(id),
      keys.roundRequests(id),
      keys.roundAnswers(id),
      claim?.claimant ?? '',
      round,
      key,
      JSON.stringify(answer),
      claim === undefined ? 0 : claim.now + claim.leaseMs,
      keys.lease(''),
    );
    return toRecorded(recorded);
  }

  async takeOver(claim: Claim, unreadable?: (id: string, error: unknown) => void): Promise<Round[]> {
    const { redis, keys } = this.opts;
    const ids = await redis.zrange(keys.openRounds, '0', '-1');
    const taken: Round[] = [];
    for (const id of ids) {
      const claimed = await redis.eval(
        TAKE_OVER_LUA,
        4,
        ...this.roundKeys(id),
        claim.claimant,
        claim.now,
        claim.now + claim.leaseMs,
        id,
        keys.lease(''),
      );
      const round = claimed === 1 ? await this.readable(id, unreadable) : undefined;
      if (round !== undefined) taken.push(round);
    }
    return taken;
  }

  /** The round `id`, or undefined (told to `unreadable`) when its record cannot be read. */
  private async readable(
    id: string,
    unreadable: ((id: string, error: unknown) => void) | undefined,
  ): Promise<Round | undefined> {
    try {
      return await this.get(id);
    } catch (error) {
      if (!(error instanceof StoreError) || error.code !== 'bad_record') throw error;
      unreadable?.(id, error);
      return undefined;
    }
  }

  async renew(id: string, claim: Claim): Promise<boolean> {
    const renewed = await this.opts.redis.eval(
      RENEW_LUA,
      1,
      this.opts.keys.round(id),
      claim.claimant,
      claim.now + claim.leaseMs,
    );
    return renewed === 1;
  }

  async next(id: string, claim: Claim, next: NextRound): Promise<boolean> {
    const pairs = Object.entries(requestFields(next.requests)).flat();
    const state = requestStateFields(next.requestState);
    const moved = await this.opts.redis.eval(
      NEXT_LUA,
      4,
      ...this.roundKeys(id),
      claim.claimant,
      id,
      state.requestState ?? '',
      state.requestState === undefined ? '0' : '1',
      JSON.stringify(next.requests.map((request) => request.key)),
      next.deadline,
      next.deadline + ROUND_GRACE_MS,
      JSON.stringify(questionFields(next.requests)),
      state.requestStateJson ?? '',
      claim.now + claim.leaseMs,
      ...pairs,
    );
    return moved === 1;
  }

  async finish(id: string, claimant: string): Promise<boolean> {
    const done = await this.opts.redis.eval(FINISH_LUA, 4, ...this.roundKeys(id), claimant, id);
    return done === 1;
  }

  async ofCall(callId: string): Promise<Round | undefined> {
    const { redis, keys } = this.opts;
    for (const id of await redis.zrange(keys.openRounds, '0', '-1')) {
      const origin = await redis.hget(keys.round(id), 'origin');
      if (origin !== null && originOf(id, origin).callId === callId) return this.get(id);
    }
    return undefined;
  }

  private roundKeys(id: string): [string, string, string, string] {
    const { keys } = this.opts;
    return [keys.round(id), keys.roundRequests(id), keys.roundAnswers(id), keys.openRounds];
  }
}

function requestFields(requests: RoundRequest[]): Record<string, string> {
  return Object.fromEntries(requests.map((request) => [request.key, JSON.stringify(request.request)]));
}

function claimFields(claim: Claim): { status: 'claimed'; claimant: string; leaseUntil: number } {
  return { status: 'claimed', claimant: claim.claimant, leaseUntil: claim.now + claim.leaseMs };
}

function questionFields(requests: RoundRequest[]): Record<string, string> {
  const asked = requests.filter((request) => request.questionId !== undefined);
  return Object.fromEntries(asked.map((request) => [`question:${request.key}`, request.questionId ?? '']));
}

const RECORDED: readonly AnswerRecorded[] = ['claimed', 'recorded', 'stale', 'missing'];

function toRecorded(reply: unknown): AnswerRecorded {
  const found = RECORDED.find((word) => word === reply);
  if (found === undefined)
    throw new StoreError('redis_error', `unexpected answer script reply: ${String(reply)}`);
  return found;
}
