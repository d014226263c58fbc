// Where each person's Connect messages for a server are (src/slack/sign-in-places.ts), shared by every replica,
// so each message ends once wherever its outcome is known: the callback's replica turns them all into
// "Connected", or its own into refused; any replica's sweep turns one whose link expired into expired. Also the
// claim that keeps two replicas prompting the same person for the same server at once to one message.
//
// Per person and server, one hash: `m:<link>` → the message's place (JSON), `p:<link>` while it is being posted.
// Each outcome takes a message by deleting its field, so only the one that deleted it updates it. One sorted set
// for the deployment holds every noted message by its link's expiry, for the sweep.
import { STATE_TTL_SEC, type Person } from '../../mcp/index.js';
import type { Keys, RedisClient } from '../../redis/index.js';
import type { ExpiredPrompt, PostedPrompt, PromptPlace, PromptPlaces } from '../sign-in-places.js';

/**
 * How long a posted Connect message stands for the person's other calls to the same server, ms (1 min): they
 * post none of their own. Short beside its link's 10 minutes, so the link a skipped call relies on still has
 * over 9 minutes to be used; a call after that posts a message of its own.
 */
export const PROMPT_CLAIM_MS = 60_000;
/**
 * How long a person's messages are kept past their newest link's 10 minutes, s (1 day): the sweep that marks a
 * message expired may run late (every replica down meanwhile) and still finds it.
 */
export const PLACES_KEPT_SEC = STATE_TTL_SEC + 86_400;

/** An entry of the expiry set: whose message, and its link. */
interface ExpiryEntry {
  teamId: string;
  userId: string;
  server: string;
  link: string;
}

const MESSAGE = 'm:';
const POSTING = 'p:';

export class RedisSignInPrompts implements PromptPlaces {
  /** The deployment's one sorted set of noted messages by their link's expiry (epoch ms). */
  private readonly expiries: string;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: Pick<Keys, 'signInPrompts' | 'signInExpiries'>,
  ) {
    this.expiries = keys.signInExpiries;
  }

  /** The keys of one person's Connect messages for one server: where they are, and the claim on the latest. */
  private keysOf(server: string, person: Person): { places: string; claim: string } {
    return this.keys.signInPrompts(person.teamId, person.userId, server);
  }

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

  async posting(server: string, person: Person, link: string): Promise<void> {
    const key = this.keysOf(server, person).places;
    await this.redis
      .multi()
      .hset(key, POSTING + link, '1')
      .expire(key, PLACES_KEPT_SEC)
      .exec();
  }

  async note(server: string, person: Person, posted: PostedPrompt): Promise<boolean> {
    const key = this.keysOf(server, person).places;
    const place = JSON.stringify({ channel: posted.channel, ts: posted.ts });
    const field = MESSAGE + posted.link;
    // The mark gone means take() read the hash meanwhile (the sign-in completed); what this wrote is then taken
    // back, unless another take() already has it (and updates it).
    const replies = await this.redis
      .multi()
      .hdel(key, POSTING + posted.link)
      .hset(key, field, place)
      .expire(key, PLACES_KEPT_SEC)
      .exec();
    if (valueOf(replies) === 0) {
      await this.redis.hdel(key, field);
      return false;
    }
    const entry: ExpiryEntry = { teamId: person.teamId, userId: person.userId, server, link: posted.link };
    await this.redis.zadd(this.expiries, posted.expiresAt, JSON.stringify(entry));
    return true;
  }

  async unmark(server: string, person: Person, link: string): Promise<void> {
    await this.redis.hdel(this.keysOf(server, person).places, POSTING + link);
  }

  async take(server: string, person: Person): Promise<{ places: PromptPlace[]; posting: boolean }> {
    const { places, claim } = this.keysOf(server, person);
    // Read and forgotten in one step, so two callbacks (two links of the same person) update each message once.
    // The claim goes too, on its own (the two keys may be on two Cluster nodes): a sign-in needed after this one
    // gets its message. The expiry entries stay until the sweep, which finds their messages taken.
    const fields = fieldsOf(valueOf(await this.redis.multi().hgetall(places).del(places).exec()));
    await this.redis.del(claim);
    const posting = Object.keys(fields).some((field) => field.startsWith(POSTING));
    const taken = Object.entries(fields).filter(([field]) => field.startsWith(MESSAGE));
    return { places: taken.flatMap(([, place]) => placeOf(place)), posting };
  }

  async takeLink(server: string, person: Person, link: string): Promise<PromptPlace | undefined> {
    const { places, claim } = this.keysOf(server, person);
    // The claim goes too: the person's next call must not skip its message for this spent link's.
    await this.redis.del(claim);
    return this.takeField(places, MESSAGE + link);
  }

  async takeExpired(now: number, max: number): Promise<ExpiredPrompt[]> {
    const due = await this.redis.zrangebyscore(this.expiries, '-inf', now, 'LIMIT', 0, max);
    const expired = await Promise.all(due.map((member) => this.takeEntry(member)));
    return expired.flat();
  }

  /** The expired message of one set entry, when this caller removed the entry and its message was still noted. */
  private async takeEntry(member: string): Promise<ExpiredPrompt[]> {
    if ((await this.redis.zrem(this.expiries, member)) === 0) return [];
    const entry = entryOf(member);
    if (entry === undefined) return [];
    const person = { teamId: entry.teamId, userId: entry.userId };
    const place = await this.takeField(this.keysOf(entry.server, person).places, MESSAGE + entry.link);
    return place === undefined ? [] : [{ server: entry.server, person, place }];
  }

  /** The place at `field` of `key`, deleted in the same step; undefined when another caller deleted it first. */
  private async takeField(key: string, field: string): Promise<PromptPlace | undefined> {
    const replies = await this.redis.multi().hget(key, field).hdel(key, field).exec();
    const [read, deleted] = [valueOf(replies, 0), valueOf(replies, 1)];
    if (deleted !== 1 || typeof read !== 'string') return undefined;
    return placeOf(read)[0];
  }
}

/** The `index`th reply of a MULTI, its error thrown. */
function valueOf(replies: [Error | null, unknown][] | null, index = 0): unknown {
  const [error, value] = replies?.[index] ?? [null, null];
  if (error !== null) throw error;
  return value;
}

/** HGETALL's reply as field → value; empty for anything else. */
function fieldsOf(reply: unknown): Record<string, string> {
  if (typeof reply !== 'object' || reply === null) return {};
  const fields: Record<string, string> = {};
  for (const [field, value] of Object.entries(reply)) if (typeof value === 'string') fields[field] = value;
  return fields;
}

/** A stored place; none when it is not one (written by another version). */
function placeOf(text: string): PromptPlace[] {
  const parsed = parsedObject(text);
  const { channel, ts } = parsed ?? {};
  return typeof channel === 'string' && typeof ts === 'string' ? [{ channel, ts }] : [];
}

/** An expiry set member; undefined when it is not one. */
function entryOf(member: string): ExpiryEntry | undefined {
  const { teamId, userId, server, link } = parsedObject(member) ?? {};
  if (typeof teamId !== 'string' || typeof userId !== 'string') return undefined;
  if (typeof server !== 'string' || typeof link !== 'string') return undefined;
  return { teamId, userId, server, link };
}

function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? { ...value } : undefined;
  } catch {
    return undefined;
  }
}
