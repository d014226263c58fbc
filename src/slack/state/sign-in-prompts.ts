// Where each person's Connect messages for a server are (src/slack/sign-in.ts), shared by every replica: the
// callback of the sign-in lands on any replica, which turns every one of them into "Connected" so no Connect
// button is left leading to a spent link. Kept while a link lives (its `state`, 10 minutes). Also the claim that
// keeps two replicas prompting the same person for the same server at once to one message.
import { STATE_TTL_SEC, type Person } from '../../mcp/index.js';
import type { RedisClient } from '../../redis/index.js';
import type { PromptPlace, PromptPlaces } from '../sign-in.js';

/**
 * How long a posted Connect message stands for the person's other calls to the same server, ms (1 min): they
 * post none of their own. Short beside its link's 10 minutes, so the link a skipped call relies on still has
 * over 9 minutes to be used; a call after that posts a message of its own.
 */
export const PROMPT_CLAIM_MS = 60_000;

/** The keys of one person's Connect messages for one server: where they are, and the claim on the latest. */
export interface PromptKeys {
  places: string;
  claim: string;
}

export class RedisSignInPrompts implements PromptPlaces {
  constructor(
    private readonly redis: RedisClient,
    private readonly keysOf: (server: string, person: Person) => PromptKeys,
  ) {}

  async claim(server: string, person: Person, scopes: readonly string[]): Promise<boolean> {
    const key = this.keysOf(server, person).claim;
    const asked = [...new Set(scopes)].sort().join(' ');
    if ((await this.redis.set(key, asked, 'PX', PROMPT_CLAIM_MS, 'NX')) === 'OK') return true;
    const held = new Set((await this.redis.get(key))?.split(' ') ?? []);
    if (scopes.every((scope) => held.has(scope))) return false;
    // A wider sign-in (a step-up) than the message standing: its own message, which stands from now on.
    await this.redis.set(key, asked, 'PX', PROMPT_CLAIM_MS);
    return true;
  }

  async note(server: string, person: Person, at: PromptPlace): Promise<void> {
    const key = this.keysOf(server, person).places;
    // The hash lives as long as its newest link: an older one's message is then past its link's life too.
    await this.redis.multi().hset(key, at.ts, at.channel).expire(key, STATE_TTL_SEC).exec();
  }

  async take(server: string, person: Person): Promise<PromptPlace[]> {
    const { places, claim } = this.keysOf(server, person);
    // Read and forgotten in one step, so two callbacks (two links of the same person) update each message once.
    // The claim goes too, on its own (the two keys may be on two Cluster nodes): a sign-in needed after this one
    // gets its message.
    const replies = await this.redis.multi().hgetall(places).del(places).exec();
    const [error, fields] = replies?.[0] ?? [null, null];
    if (error !== null) throw error;
    await this.redis.del(claim);
    return Object.entries(placesOf(fields)).map(([ts, channel]) => ({ channel, ts }));
  }
}

/** HGETALL's reply as field → value; empty for anything else. */
function placesOf(reply: unknown): Record<string, string> {
  if (typeof reply !== 'object' || reply === null) return {};
  const places: Record<string, string> = {};
  for (const [ts, channel] of Object.entries(reply)) if (typeof channel === 'string') places[ts] = channel;
  return places;
}
