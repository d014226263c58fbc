// Pacing by Slack's documented limits (blocks/slack-rate-limits.ts), shared by every replica through Redis:
// each limit is a GCRA whose next free slot is one Redis key; a call reserves its slot there, a Retry-After
// holds the limit.
import { POST_PER_CHANNEL, methodLimit } from '../../../blocks/slack-rate-limits.js';
import type { Keys, RedisClient } from '../../redis/index.js';
import { OUTBOX_CHANNEL_PACE_MS } from './types.js';

/**
 * One limit (KEYS[1] holds its next free slot, epoch ms by Redis's clock), GCRA: reserves a slot ARGV[1] ms
 * after the last, letting a call go up to ARGV[2] ms early (the planned burst); returns the wait in ms. With
 * ARGV[3] > 0 (a Retry-After in ms) it reserves nothing and moves the next free slot past it instead.
 */
const PACE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local due = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
local hold = tonumber(ARGV[3])
if hold > 0 then
  due = math.max(due, now + hold)
  redis.call('SET', KEYS[1], due, 'PX', due - now + interval)
  return 0
end
redis.call('SET', KEYS[1], due + interval, 'PX', due + interval - now)
return math.max(now, due - tonumber(ARGV[2])) - now`;

/**
 * A call of the limit (KEYS[1], its calls as made) was answered: Slack received it at the latest now, so the
 * limit's next free slot is at least one interval (ARGV[1] ms) from now, by Redis's clock.
 */
const ANSWERED_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local due = now + tonumber(ARGV[1])
if due > tonumber(redis.call('GET', KEYS[1]) or '0') then redis.call('SET', KEYS[1], due, 'PX', ARGV[1]) end
return 0`;

/** A limit the outbox paces by: its Redis key, spacing and planned burst (part of what Slack tolerates). */
export interface Pace {
  key: string;
  intervalMs: number;
  earlyMs: number;
  /**
   * How early a call may be made against the limit's calls as actually made (KEY:call, the same GCRA), in ms:
   * half-way between the planned burst and what Slack tolerates, so a call in flight may arrive that much later.
   */
  callEarlyMs: number;
}

/** The call a limit applies to: its method, channel and workspace. */
export interface PacedCall {
  method: string;
  channel: string;
  teamId?: string;
}

export class Pacer {
  /** `channelPaceMs`: spacing of posts to one channel, default OUTBOX_CHANNEL_PACE_MS; 0 turns it off. */
  constructor(
    private readonly producer: RedisClient,
    private readonly keys: Keys,
    private readonly channelPaceMs = OUTBOX_CHANNEL_PACE_MS,
  ) {}

  /** The limit a call is paced by: its channel for a post, its workspace's tier for a tiered method. */
  paceOf(call: PacedCall): Pace | undefined {
    if (call.method === 'chat.postMessage') {
      const intervalMs = this.channelPaceMs;
      // Slack documents "short bursts >1" per channel (POST_PER_CHANNEL.burst). Three quarters of that
      // allowance are planned, as much as the calls as made may use (a channel's second post a quarter of an
      // interval after its first: a DM's 10 cards take 8.25 intervals, not 9); the last quarter covers a call's
      // way to Slack. A call answered late moves the calls as made on (answered), and conform() then holds the
      // next ones that much: planning half (8.5 intervals) absorbed that without holds, but the flood's last
      // card came 1.21-1.25x after the floor against 1.17-1.18x (issue #19 goal 7a).
      const allowanceMs = (POST_PER_CHANNEL.burst - 1) * intervalMs;
      const earlyMs = (allowanceMs * 3) / 4;
      return intervalMs > 0
        ? { key: this.keys.pace(call.channel), intervalMs, earlyMs, callEarlyMs: earlyMs }
        : undefined;
    }
    const limit = methodLimit(call.method);
    if (!limit) return undefined;
    const earlyMs = (Math.max(1, Math.floor(limit.burst / 2)) - 1) * limit.intervalMs;
    const key = this.keys.pace(`${call.method}@${call.teamId ?? '-'}`);
    const callEarlyMs = (earlyMs + (limit.burst - 1) * limit.intervalMs) / 2;
    return { key, intervalMs: limit.intervalMs, earlyMs, callEarlyMs };
  }

  /**
   * A call reserved under `pace` (its calls as made) was answered: the next free slot moves to at least one
   * interval from now, so a call that took long to reach Slack counts from when it could have reached it.
   */
  async answered(pace: Pace): Promise<void> {
    await this.producer.eval(ANSWERED_SCRIPT, 1, pace.key, pace.intervalMs);
  }

  /** Reserves a slot of `pace` and returns the wait for it in ms; or, with `holdMs`, holds the limit that long. */
  async reserve(pace: Pace, holdMs: number): Promise<number> {
    const wait = await this.producer.eval(PACE_SCRIPT, 1, pace.key, pace.intervalMs, pace.earlyMs, holdMs);
    return typeof wait === 'number' ? wait : 0;
  }
}
