// Who is in a channel, for the questions anyone in a channel may answer (audience.ts). Slack has no "is this
// person in that channel" method for a bot: conversations.members lists a channel under 1000 ids a page, one
// cursor after another (Tier 4: 100+ calls per minute per workspace). A 12,000-member channel is 13 calls in a
// row, about 2 s with Slack 150 ms away: longer than the answering service has to reply to a click (1.5 s,
// REPLY_WITHIN_MS), so a member listed late could never answer, and each click spent up to 20 calls.
//
// So each replica keeps each channel's member list (a Set), filled by one paging at a time per channel that
// every click waiting on it shares; a channel of one page (under 999 members) is still listed for every click. A question's answerers warm it when it is asked, so its clicks find it ready.
// A click is answered from a list under the TTL (60 s) old; a click of someone not in it pages again once (they
// may have just joined) unless the list is under 10 s old (a non-member's clicks cost no paging each); a click
// of someone in an older list waits up to 1 s for the new paging to confirm, and is allowed from the old list
// (at most 1 h old) when Slack is slower than that (a very large channel); a paging that fails refuses (one Slack
// refuses for good, the channel deleted, archived or left, as RelayError 'channel_unlistable'). A
// waiting click is answered as soon as its person's page arrives, not at the paging's end. So someone who left
// a channel may still answer within the TTL, or (a channel too large to page in 1 s) until the new paging ends;
// member_joined_channel and member_left_channel events could keep the lists exact.
import { systemClock } from '../clock.js';
import type { RelayClock } from '../relay/ports.js';
import { RelayError } from '../relay/errors.js';
import { answerWithin } from '../settle.js';
import { conversationGone, slackErrorCode } from './outbox/slack-calls.js';
import { retried } from './retried.js';
import type { SlackClients } from './workspaces.js';

/**
 * Members asked for per conversations.members page: the method page says to ask for under 1000 (its limit
 * argument's largest value is 999 in @slack/web-api's types); fewer pages matter more here than its advice of
 * 200, since the pages are read one after another.
 */
const MEMBERS_PAGE = 999;
/** Pages read per paging: members listed past 19,980 are not seen (20 calls per channel per TTL at most). */
const MEMBERS_PAGES_MAX = 20;
/**
 * How long a members page is tried again after its first try, in ms: a click may be waiting for the paging
 * within its 1.5 s reply bound (REPLY_WITHIN_MS); a 429's Retry-After of 1 s still fits.
 */
export const MEMBERS_RETRY_WITHIN_MS = 1_000;

export interface ChannelMembersOptions {
  /** How long a list is trusted as it is, in ms from its paging's start. Default 60 s. */
  ttlMs?: number;
  /** A person missing from a list younger than this (ms) is refused without paging again. Default 10 s. */
  recheckAfterMs?: number;
  /** How long a person in a list past its TTL waits for the new paging before the old list answers, in ms. Default 1 s. */
  staleWaitMs?: number;
  /** A list older than this (ms) is dropped, never answers. Default 1 h. */
  maxStaleMs?: number;
  /** Member ids kept over all lists; the least recently used lists go beyond it. Default 200,000 (~10 MB). */
  maxMembersKept?: number;
}

const DEFAULTS: Required<ChannelMembersOptions> = {
  ttlMs: 60_000,
  recheckAfterMs: 10_000,
  staleWaitMs: 1_000,
  maxStaleMs: 60 * 60_000,
  maxMembersKept: 200_000,
};

/** A channel's members as one paging listed them, and when that paging started (epoch ms). */
interface MemberList {
  readonly members: ReadonlySet<string>;
  readonly filledAt: number;
}

export class ChannelMembers {
  /** Lists by workspace and channel, least recently used first. */
  private readonly lists = new Map<string, MemberList>();
  /** The paging in flight per workspace and channel: every click and warm of it shares this one. */
  private readonly pagings = new Map<string, Paging>();
  private readonly settings: Required<ChannelMembersOptions>;

  constructor(
    private readonly clients: SlackClients,
    /** The list ages, the waits after a 429 and the wait on a stale list's paging. Default the system clock. */
    private readonly clock: RelayClock = systemClock,
    options: ChannelMembersOptions = {},
  ) {
    this.settings = { ...DEFAULTS, ...options };
  }

  /**
   * Pages the channel's members ahead of its clicks unless its list is under half the TTL old (so a channel
   * clicked often is paged again before its list expires). Resolves once the list is ready; never rejects: a
   * paging that failed leaves the clicks to page again.
   */
  async warm(channel: string, teamId?: string): Promise<void> {
    const key = keyOf(channel, teamId);
    const list = this.lists.get(key);
    if (list && this.ageOf(list) < this.settings.ttlMs / 2) return;
    await this.paging(key, channel, teamId).done.catch(() => undefined);
  }

  /** Whether `userId` is in `channel`, as described at the top. Rejects when Slack cannot list it. */
  async has(channel: string, userId: string, teamId?: string): Promise<boolean> {
    const key = keyOf(channel, teamId);
    const list = this.usable(key);
    // A channel Slack lists in one page is listed again for each click (one call, as the check always was):
    // joining or leaving counts at once. Only larger ones are answered from the list.
    if (!list || list.members.size < MEMBERS_PAGE) return this.paging(key, channel, teamId).found(userId);
    const age = this.ageOf(list);
    const listed = list.members.has(userId);
    if (age < this.settings.ttlMs) {
      if (listed) {
        this.keep(key, list);
        void this.warm(channel, teamId);
        return true;
      }
      if (age < this.settings.recheckAfterMs) return false;
      return this.paging(key, channel, teamId).found(userId);
    }
    const confirmed = this.paging(key, channel, teamId).found(userId);
    return listed ? this.orListed(confirmed) : confirmed;
  }

  /**
   * The paging's answer when it comes within staleWaitMs, else yes, from the old list. A paging that fails
   * first is passed on: Slack refusing to list the channel is no reason to trust an old list.
   */
  private orListed(confirmed: Promise<boolean>): Promise<boolean> {
    return answerWithin(confirmed, this.settings.staleWaitMs, true, this.clock);
  }

  /** The list of `key` unless it is past maxStaleMs (then it is dropped). */
  private usable(key: string): MemberList | undefined {
    const list = this.lists.get(key);
    if (list && this.ageOf(list) < this.settings.maxStaleMs) return list;
    this.lists.delete(key);
    return undefined;
  }

  private ageOf(list: MemberList): number {
    return this.clock.now() - list.filledAt;
  }

  /** The paging of `key` in flight, or a new one, whose list is kept once it has read every page. */
  private paging(key: string, channel: string, teamId: string | undefined): Paging {
    const out = this.pagings.get(key);
    if (out) return out;
    const paging = new Paging(this.clock.now(), (into) => this.read(into, channel, teamId));
    this.pagings.set(key, paging);
    const kept = () => this.keep(key, { members: paging.seen, filledAt: paging.startedAt });
    // A failed paging leaves the previous list as it was; the clicks waiting on it get the failure.
    void paging.done.then(kept, () => undefined).finally(() => this.pagings.delete(key));
    return paging;
  }

  /** Reads the channel's members into `into`, page after page, each page tried again within the click's bound. */
  private async read(into: Paging, channel: string, teamId: string | undefined): Promise<void> {
    const client = await this.clients.for(teamId);
    let cursor: string | undefined;
    for (let page = 0; page < MEMBERS_PAGES_MAX; page++) {
      const args = { channel, limit: MEMBERS_PAGE, ...(cursor ? { cursor } : {}) };
      const call = () => client.conversations.members(args);
      const listed = await retried(call, this.clock, MEMBERS_RETRY_WITHIN_MS).catch(unlistable(channel));
      into.add(listed.members ?? []);
      cursor = listed.response_metadata?.next_cursor;
      if (!cursor) return;
    }
  }

  /** Keeps `list` as the most recently used, dropping the least recently used others past maxMembersKept. */
  private keep(key: string, list: MemberList): void {
    this.lists.delete(key);
    this.lists.set(key, list);
    let kept = 0;
    for (const other of this.lists.values()) kept += other.members.size;
    for (const [other, { members }] of this.lists) {
      if (kept <= this.settings.maxMembersKept || other === key) return;
      this.lists.delete(other);
      kept -= members.size;
    }
  }
}

/** One paging of a channel's members: the ids read so far, and the clicks waiting for their person. */
class Paging {
  readonly seen = new Set<string>();
  /** Who is waiting to be found, each with the clicks waiting. */
  private readonly looking = new Map<string, ((found: boolean) => void)[]>();
  /** Settles once every page is read (or the paging failed). */
  readonly done: Promise<void>;

  constructor(
    /** When the paging started (epoch ms): its list is as old as that. */
    readonly startedAt: number,
    read: (into: Paging) => Promise<void>,
  ) {
    this.done = read(this);
    const stop = () => this.looking.clear();
    void this.done.then(stop, stop);
  }

  /** Yes as soon as `userId`'s page is read, no once every page is read without them; rejects if it failed. */
  found(userId: string): Promise<boolean> {
    if (this.seen.has(userId)) return Promise.resolve(true);
    return new Promise((resolve, reject) => {
      this.looking.set(userId, [...(this.looking.get(userId) ?? []), resolve]);
      this.done.then(() => resolve(this.seen.has(userId)), reject);
    });
  }

  /** One page's members: those waited for are answered now. */
  add(members: readonly string[]): void {
    for (const id of members) {
      this.seen.add(id);
      const waiting = this.looking.get(id);
      if (!waiting) continue;
      this.looking.delete(id);
      for (const resolve of waiting) resolve(true);
    }
  }
}

/**
 * A paging's failure as it goes on to the clicks: Slack's refusals for the conversation itself (deleted or never
 * visible to the bot `channel_not_found`, archived, left: slack-calls.ts conversationGone), which no retry gets
 * past, as RelayError('channel_unlistable'); a passing one (429, 5xx, network) as it was.
 */
function unlistable(channel: string): (cause: unknown) => never {
  return (cause) => {
    const code = slackErrorCode(cause);
    if (code === undefined || !conversationGone(code)) throw cause;
    throw new RelayError(
      'channel_unlistable',
      `cannot list the members of ${channel}: Slack answers ${code}`,
      {
        cause,
      },
    );
  };
}

function keyOf(channel: string, teamId: string | undefined): string {
  return `${teamId ?? ''}:${channel}`;
}
