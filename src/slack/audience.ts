// Where a server's questions are asked and who may answer them, from its `slack` policy: answerers are resolved
// when the question is asked (user groups through usergroups.users.list) and stored with it; "anyone in the
// channel" is checked when someone acts, against the replica's list of the channel's members (channel-members.ts:
// conversations.members, paged when the question is asked so that its clicks find the list ready).
import { DEFAULT_SLACK_POLICY, type SlackPolicy } from '../config/index.js';
import { RelayError, relayErrorCode } from '../relay/errors.js';
import type { Recipients } from '../relay/sources/intake.js';
import { peopleNamed, type Answerers, type Origin, type Place, type Question } from '../relay/types.js';
import { systemClock } from '../clock.js';
import type { RelayClock } from '../relay/ports.js';
import { ChannelMembers } from './channel-members.js';
import { missingScopeError } from './missing-scope.js';
import { slackErrorCode } from './outbox/slack-calls.js';
import { retried } from './retried.js';
import { SharedLookup } from './shared-lookup.js';
import type { SlackClients } from './workspaces.js';

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
    /** Each channel's members as this replica last listed them. Default one on `clients` and `clock`. */
    private readonly channels: ChannelMembers = new ChannelMembers(clients, clock),
  ) {}

  /**
   * Who may answer a question of `server` that `origin` started; undefined when only the requester may (the
   * default). Throws RelayError('answerers_unavailable') when Slack cannot list a configured user group now,
   * RelayError('no_answerers') when Slack knows no such group, or RelayError('missing_scope') when the bot token
   * lacks usergroups:read.
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
    const inChannel = channel && 'channel' in place ? place.channel : undefined;
    if (inChannel) void this.warm(inChannel, origin.teamId);
    return {
      users: named,
      ...(groups.length > 0 ? { groups } : {}),
      ...(inChannel ? { channel: inChannel } : {}),
    };
  }

  /**
   * The answerers an API client names in `to`: user groups resolved to their members now. Throws as
   * answerersFor does; a group Slack does not know, RelayError('no_answerers') naming `/to/usergroup`.
   */
  async answerersTo(to: Recipients, teamId?: string): Promise<Answerers> {
    if ('user' in to) return { users: [to.user] };
    if ('users' in to) return { users: [...new Set(to.users)] };
    if ('channel' in to) {
      void this.warm(to.channel, teamId);
      return { users: [], channel: to.channel };
    }
    const members = await this.membersOf(to.usergroup, teamId).catch(naming('/to/usergroup'));
    return { users: [], groups: [{ id: to.usergroup, members }] };
  }

  /** Whether `userId` may answer `question` (its answerers, or its requester alone when it has none). */
  async mayAnswer(question: Question, userId: string): Promise<boolean> {
    const answerers = question.answerers;
    if (!answerers) return question.userId === userId;
    const { users, groups = [] } = answerers;
    if (users.includes(userId) || groups.some((g) => g.members.includes(userId))) return true;
    return (
      answerers.channel !== undefined && this.channels.has(answerers.channel, userId, question.origin.teamId)
    );
  }

  /**
   * Lists `channel`'s members ahead of the clicks on a question to anyone in it (answerersFor and answerersTo
   * start it as the question is asked, without waiting); resolves once the list is ready, never rejects.
   */
  warm(channel: string, teamId?: string): Promise<void> {
    return this.channels.warm(channel, teamId);
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
        // Not Slack's passing fault: no retry of the request helps until the app is reinstalled with the scope.
        const unscoped = missingScopeError(why, cause);
        if (unscoped) throw unscoped;
        // No such group in the workspace (a typo, a deleted group): nobody to ask, however often asked again.
        if (slackErrorCode(cause) === 'no_such_subteam') {
          throw new RelayError('no_answerers', `no such user group ${usergroup} (Slack: no_such_subteam)`, {
            cause,
          });
        }
        throw new RelayError('answerers_unavailable', why, { cause });
      }
    });
  }
}

/** A lookup's RelayError('no_answerers') with its message led by the request field at fault (`/to/usergroup`). */
function naming(field: string): (error: unknown) => never {
  return (error) => {
    if (relayErrorCode(error) !== 'no_answerers' || !(error instanceof Error)) throw error;
    throw new RelayError('no_answerers', `${field}: ${error.message}`, { cause: error });
  };
}

/**
 * Most answerers, besides the requester, who get a form question's card in their own DM, where the policy puts
 * it in the requester's (20). Each card's end is a chat.update, Slack's Tier 3 (50 a minute per workspace,
 * shared by every question's cards): 20 take about 12 s of it past its burst of 10, where a user group of 200
 * would hold the workspace's other card updates for four minutes. The others answer from App Home.
 */
export const ANSWERER_DMS_MAX = 20;

/** The question fields that say where its cards go. */
type Routed = Pick<Question, 'place' | 'origin' | 'answerers' | 'url'>;

/**
 * Where a question's cards go: where its asker put it, else where its server's policy puts it; a form question
 * the policy puts in the requester's DM goes to each of its other answerers' DMs too (up to ANSWERER_DMS_MAX),
 * one card each after the requester's (Place `mpims` of one person each). A URL question's link is for the
 * person whose session asks, so it stays in their DM.
 */
export function placeOfQuestion(policy: SlackPolicy, question: Routed): Place {
  if (question.place) return question.place;
  const place = placeOf(policy, question.origin);
  const { sent } = answererDms(policy, question);
  return 'dm' in place && sent.length > 0 ? { mpims: [[place.dm], ...sent.map((one) => [one])] } : place;
}

/**
 * The answerers of a form question the policy puts in the requester's DM, the requester aside, who get a card in
 * their own DM (`sent`, in the order named), and those past ANSWERER_DMS_MAX who do not (`notSent`).
 */
export function answererDms(policy: SlackPolicy, question: Routed): { sent: string[]; notSent: string[] } {
  const none = { sent: [], notSent: [] };
  if (question.place || !question.answerers || question.url) return none;
  const place = placeOf(policy, question.origin);
  if (!('dm' in place)) return none;
  const others = peopleNamed(question.answerers).filter((person) => person !== place.dm);
  return { sent: others.slice(0, ANSWERER_DMS_MAX), notSent: others.slice(ANSWERER_DMS_MAX) };
}

/** Where the policy puts a question started at `origin`; the DM when the command's conversation is unknown. */
export function placeOf(policy: SlackPolicy, origin: Origin): Place {
  if (policy.route === 'channel' && policy.channel) return { channel: policy.channel };
  if (policy.route === 'thread' && origin.channelId) {
    return { channel: origin.channelId, ...(origin.threadTs ? { threadTs: origin.threadTs } : {}) };
  }
  return { dm: origin.userId };
}
