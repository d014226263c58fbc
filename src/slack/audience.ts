// Where a server's questions are asked and who may answer them, from its `slack` policy: answerers are resolved
// when the question is asked (user groups through usergroups.users.list) and stored with it; "anyone in the
// channel" is checked when someone acts (conversations.members), so joining or leaving counts at once.
import { DEFAULT_SLACK_POLICY, type SlackPolicy } from '../config/index.js';
import { RelayError } from '../relay/errors.js';
import type { Recipients } from '../relay/sources/intake.js';
import type { Answerers, Origin, Place, Question } from '../relay/types.js';
import { systemClock } from '../clock.js';
import type { RelayClock } from '../relay/ports.js';
import { retried } from './retried.js';
import { SharedLookup } from './shared-lookup.js';
import type { SlackClients } from './workspaces.js';

/** Members listed per conversations.members page (Slack's maximum is 1000). */
const MEMBERS_PAGE = 1000;
/** Pages read before giving up on finding someone in a very large channel. */
const MEMBERS_PAGES_MAX = 20;
/**
 * How long a members page is tried again after its first try, in ms: the check runs inside the 1.5 s in which
 * the answering service must reply to a click (REPLY_WITHIN_MS); a 429's Retry-After of 1 s still fits.
 */
export const MEMBERS_RETRY_WITHIN_MS = 1_000;

export type { Place };

export class Audience {
  /** The user group listings out: the questions to one group that come together wait for one call. */
  private readonly listing = new SharedLookup<string[]>();

  constructor(
    private readonly clients: SlackClients,
    /** The `slack` policy of each configured server. */
    readonly policyOf: (server: string) => SlackPolicy = () => DEFAULT_SLACK_POLICY,
    /** The waits before listing a group or a channel's members again after a 429. Default the system clock. */
    private readonly clock: RelayClock = systemClock,
  ) {}

  /**
   * Who may answer a question of `server` that `origin` started; undefined when only the requester may (the
   * default). Throws RelayError('answerers_unavailable') when Slack cannot list a configured user group.
   */
  async answerersFor(server: string, origin: Origin): Promise<Answerers | undefined> {
    const policy = this.policyOf(server);
    const { requester, users, usergroups, channel } = policy.answerers;
    if (requester && users.length === 0 && usergroups.length === 0 && !channel) return undefined;
    const named = [...new Set([...(requester ? [origin.userId] : []), ...users])];
    const groups = await Promise.all(
      usergroups.map(async (id) => ({ id, members: await this.membersOf(id, origin.teamId) })),
    );
    const place = placeOf(policy, origin);
    const inChannel = channel && 'channel' in place ? { channel: place.channel } : {};
    return { users: named, ...(groups.length > 0 ? { groups } : {}), ...inChannel };
  }

  /** The answerers an API client names in `to`: user groups resolved to their members now. */
  async answerersTo(to: Recipients, teamId?: string): Promise<Answerers> {
    if ('user' in to) return { users: [to.user] };
    if ('users' in to) return { users: [...new Set(to.users)] };
    if ('channel' in to) return { users: [], channel: to.channel };
    return { users: [], groups: [{ id: to.usergroup, members: await this.membersOf(to.usergroup, teamId) }] };
  }

  /** Whether `userId` may answer `question` (its answerers, or its requester alone when it has none). */
  async mayAnswer(question: Question, userId: string): Promise<boolean> {
    const answerers = question.answerers;
    if (!answerers) return question.userId === userId;
    const { users, groups = [] } = answerers;
    if (users.includes(userId) || groups.some((g) => g.members.includes(userId))) return true;
    return answerers.channel !== undefined && this.inChannel(answerers.channel, userId, question);
  }

  /**
   * A user group's members. usergroups.users.list is Tier 2 (20+ per minute per workspace): a burst of questions
   * to one group shares one call, and a 429 is waited out (retried.ts) instead of refusing the questions.
   */
  private membersOf(usergroup: string, teamId: string | undefined): Promise<string[]> {
    return this.listing.get(`${teamId ?? ''}:${usergroup}`, async () => {
      const client = await this.clients.for(teamId);
      const list = () => client.usergroups.users.list({ usergroup, ...(teamId ? { team_id: teamId } : {}) });
      try {
        return (await retried(list, this.clock)).users ?? [];
      } catch (cause) {
        const why = `cannot list the members of user group ${usergroup}`;
        throw new RelayError('answerers_unavailable', why, { cause });
      }
    });
  }

  private async inChannel(channel: string, userId: string, question: Question): Promise<boolean> {
    const client = await this.clients.for(question.origin.teamId);
    let cursor: string | undefined;
    for (let page = 0; page < MEMBERS_PAGES_MAX; page++) {
      const args = { channel, limit: MEMBERS_PAGE, ...(cursor ? { cursor } : {}) };
      const listed = await retried(
        () => client.conversations.members(args),
        this.clock,
        MEMBERS_RETRY_WITHIN_MS,
      );
      if (listed.members?.includes(userId)) return true;
      cursor = listed.response_metadata?.next_cursor;
      if (!cursor) return false;
    }
    return false;
  }
}

/** Where a question's card goes: where its asker put it, else where its server's policy puts it. */
export function placeOfQuestion(policy: SlackPolicy, question: Pick<Question, 'place' | 'origin'>): Place {
  return question.place ?? placeOf(policy, question.origin);
}

/** Where the policy puts a question started at `origin`; the DM when the command's conversation is unknown. */
export function placeOf(policy: SlackPolicy, origin: Origin): Place {
  if (policy.route === 'channel' && policy.channel) return { channel: policy.channel };
  if (policy.route === 'thread' && origin.channelId) {
    return { channel: origin.channelId, ...(origin.threadTs ? { threadTs: origin.threadTs } : {}) };
  }
  return { dm: origin.userId };
}
