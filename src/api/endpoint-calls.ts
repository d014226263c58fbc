// What each running tools/call of POST /mcp is, kept in Redis so that a host's `notifications/cancelled` landing
// on another replica than the call's still finds it: the question an ask_human call waits on (the cancel
// withdraws it), or a gateway call's token (the cancel marks it cancelled; the replica running the call reads
// the mark within a second, gateway-cancels.ts, and ends the call there as a cancel of its own would). A call is
// named by its id within the host's MCP session (src/mcp/host-calls.ts); an entry lives while its call runs.
// Two calls running under one name (hosts that send no session id share their JSON-RPC ids), of either kind and
// on any replicas, make it ambiguous: a cancel naming it then finds neither, rather than possibly the other
// host's, for as long as either could still be running.
import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/index.js';

/** A gateway call running on this replica, as its entry names it. */
export interface GatewayEntry {
  client: string;
  callId: string;
  /** Random per call: tells this call's entry from a later call's under the same name. */
  token: string;
}

export interface EndpointCalls {
  /** Notes that the client's call `callId` waits on `questionId`, for at most `ttlMs` (the question's lifetime). */
  remember(client: string, callId: string, questionId: string, ttlMs: number): Promise<void>;
  /** The call ended: it no longer names `questionId`. */
  forget(client: string, callId: string, questionId: string): Promise<void>;
  /** The question the client's call `callId` waits on, if one call of that name is running (and is an ask_human). */
  questionOf(client: string, callId: string): Promise<string | undefined>;
  /** Notes a gateway call running, for `ttlMs` unless `checkGateways` renews it. */
  rememberGateway(call: GatewayEntry, ttlMs: number): Promise<void>;
  /**
   * Notes a call another replica started under this name (it died; this one resumes the call), for `ttlMs`: its
   * entry becomes this call's, a cancel mark on it kept, so the next check answers it cancelled.
   */
  adoptGateway(call: GatewayEntry, ttlMs: number): Promise<void>;
  /** The gateway call ended: its entry goes, cancelled or not. */
  forgetGateway(call: GatewayEntry): Promise<void>;
  /** Marks the one gateway call running under this name cancelled; false when there is none (or several). */
  cancelGateway(client: string, callId: string): Promise<boolean>;
  /**
   * As cancelGateway, telling apart a call a cancel already marked (`already`) from none running (`none`: it
   * ended, never ran, or shares its name), for a person who clicks twice (src/slack/run-cancels.ts).
   */
  markCancelled(client: string, callId: string): Promise<CancelMark>;
  /** Renews the entries of these calls for `ttlMs` and answers the tokens of those a cancel marked. */
  checkGateways(calls: readonly GatewayEntry[], ttlMs: number): Promise<string[]>;
}

/** What marking a running call cancelled did: marked it, found it marked already, or found none running. */
export type CancelMark = 'marked' | 'already' | 'none';

/** The mark of a name two running calls share (no question id is empty). */
const AMBIGUOUS = '';
/** A running gateway call's entry is this and its token; a cancelled one's the other. Question ids have no ':'. */
const GATEWAY = 'gateway:';
const CANCELLED = 'cancelled:';

// KEYS[1] the call's entry; ARGV[1] question id or gateway entry, ARGV[2] ttl ms. A second call under a taken
// name marks it ambiguous, for at least as long as the first would have lived.
const REMEMBER_LUA = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
local left = redis.call('PTTL', KEYS[1])
redis.call('SET', KEYS[1], '${AMBIGUOUS}', 'KEEPTTL')
if left < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

// KEYS[1] the call's entry; ARGV[1] the adopting call's token, ARGV[2] ttl ms. Whatever the entry held (the dead
// replica's token, marked cancelled or not, or nothing once it lapsed) becomes the adopter's, its mark kept.
const ADOPT_LUA = `
local value = redis.call('GET', KEYS[1])
local marked = value and string.sub(value, 1, ${CANCELLED.length}) == '${CANCELLED}'
redis.call('SET', KEYS[1], (marked and '${CANCELLED}' or '${GATEWAY}') .. ARGV[1], 'PX', ARGV[2])
return 1
`;

// KEYS[1] the call's entry; ARGV the values it may still hold to be deleted (the call's own).
const FORGET_LUA = `
local value = redis.call('GET', KEYS[1])
for _, own in ipairs(ARGV) do
  if value == own then return redis.call('DEL', KEYS[1]) end
end
return 0
`;

// KEYS[1] the call's entry: a running gateway call's becomes cancelled, keeping its time to live (1); one marked
// already answers 2, anything else 0.
const CANCEL_LUA = `
local value = redis.call('GET', KEYS[1])
if value and string.sub(value, 1, ${CANCELLED.length}) == '${CANCELLED}' then return 2 end
if not value or string.sub(value, 1, ${GATEWAY.length}) ~= '${GATEWAY}' then return 0 end
redis.call('SET', KEYS[1], '${CANCELLED}' .. string.sub(value, ${GATEWAY.length + 1}), 'KEEPTTL')
return 1
`;

// KEYS the calls' entries; ARGV[1] ttl ms, ARGV[1 + i] the token of KEYS[i]. Returns the indexes of the cancelled.
// An entry holding another running call's value (ours lapsed in an outage and a call took the name) becomes
// ambiguous; one that lapsed stays gone (the call is then not found by a cancel elsewhere).
const CHECK_LUA = `
local cancelled = {}
local ttl = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local value = redis.call('GET', key)
  if value == '${CANCELLED}' .. ARGV[i + 1] then
    cancelled[#cancelled + 1] = i
  elseif value and string.sub(value, 1, ${CANCELLED.length}) ~= '${CANCELLED}' then
    if value ~= '${GATEWAY}' .. ARGV[i + 1] then redis.call('SET', key, '${AMBIGUOUS}', 'KEEPTTL') end
    if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
  end
end
return cancelled
`;

export class RedisEndpointCalls implements EndpointCalls {
  constructor(
    private readonly redis: RedisClient,
    private readonly keyOf: (client: string, callId: string) => string,
  ) {}

  async remember(client: string, callId: string, questionId: string, ttlMs: number): Promise<void> {
    await this.redis.eval(REMEMBER_LUA, 1, this.key(client, callId), questionId, millis(ttlMs));
  }

  async forget(client: string, callId: string, questionId: string): Promise<void> {
    await this.redis.eval(FORGET_LUA, 1, this.key(client, callId), questionId);
  }

  async questionOf(client: string, callId: string): Promise<string | undefined> {
    const value = await this.redis.get(this.key(client, callId));
    const question = value !== null && value !== AMBIGUOUS && !isGateway(value);
    return question ? value : undefined;
  }

  async rememberGateway(call: GatewayEntry, ttlMs: number): Promise<void> {
    const key = this.key(call.client, call.callId);
    await this.redis.eval(REMEMBER_LUA, 1, key, `${GATEWAY}${call.token}`, millis(ttlMs));
  }

  async adoptGateway(call: GatewayEntry, ttlMs: number): Promise<void> {
    const key = this.key(call.client, call.callId);
    await this.redis.eval(ADOPT_LUA, 1, key, call.token, millis(ttlMs));
  }

  async forgetGateway(call: GatewayEntry): Promise<void> {
    const key = this.key(call.client, call.callId);
    await this.redis.eval(FORGET_LUA, 1, key, `${GATEWAY}${call.token}`, `${CANCELLED}${call.token}`);
  }

  async cancelGateway(client: string, callId: string): Promise<boolean> {
    return (await this.markCancelled(client, callId)) === 'marked';
  }

  async markCancelled(client: string, callId: string): Promise<CancelMark> {
    const reply = await this.redis.eval(CANCEL_LUA, 1, this.key(client, callId));
    return reply === 1 ? 'marked' : reply === 2 ? 'already' : 'none';
  }

  async checkGateways(calls: readonly GatewayEntry[], ttlMs: number): Promise<string[]> {
    if (calls.length === 0) return [];
    const keys = calls.map((c) => this.key(c.client, c.callId));
    const tokens = calls.map((c) => c.token);
    const reply = await this.redis.eval(CHECK_LUA, keys.length, ...keys, millis(ttlMs), ...tokens);
    const indexes = Array.isArray(reply) ? reply : [];
    return calls.filter((_, at) => indexes.includes(at + 1)).map((c) => c.token);
  }

  /** Ids are any string the host chose: hashed, so the key stays short and free of separators. */
  private key(client: string, callId: string): string {
    return this.keyOf(client, createHash('sha256').update(callId).digest('hex'));
  }
}

const millis = (ms: number): number => Math.max(1, Math.ceil(ms));

const isGateway = (value: string): boolean => value.startsWith(GATEWAY) || value.startsWith(CANCELLED);
