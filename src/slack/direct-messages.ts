// The bot's direct messages: a person's DM, or the multi-person DM of several, by workspace. chat.update needs
// the D…/G… channel id, not the user ids, so each is opened once (conversations.open) and its id cached; the
// cards of questions that come together wait for one open (SharedLookup). A person's DM is kept for the
// replica's life (one per person), a multi-person DM's only among the GROUP_DMS_KEPT used last: an automation
// may name another set of people in each question, and each set is a DM of its own.
import type { Clock } from '../clock.js';
import { RelayError } from '../relay/errors.js';
import type { OnePlace } from './card-readers.js';
import { missingScopeError } from './missing-scope.js';
import { retried } from './retried.js';
import { SharedLookup } from './shared-lookup.js';
import type { SlackClients } from './workspaces.js';

/** Multi-person DMs whose channel id is kept (~200 bytes each); past it the least recently used is opened again. */
export const GROUP_DMS_KEPT = 5_000;

export class DirectMessages {
  /** A person's DM channel id by `<teamId>:<user>`. */
  private readonly known = new Map<string, string>();
  /** A multi-person DM's channel id by `<teamId>:<users>`, least recently used first. */
  private readonly groups = new Map<string, string>();
  private readonly opening = new SharedLookup<string>();

  constructor(
    private readonly clients: SlackClients,
    /** The waits between conversations.open's tries after a 429 (retried.ts). */
    private readonly clock: Pick<Clock, 'now' | 'schedule'>,
    /** Multi-person DMs kept; default GROUP_DMS_KEPT. */
    private readonly groupsKept = GROUP_DMS_KEPT,
  ) {}

  /** The person's DM channel with the bot. */
  of(userId: string, teamId: string | undefined): Promise<string> {
    return this.open(userId, teamId);
  }

  /** A card's channel: the asked person's DM, the multi-person DM of several people, or the conversation. */
  async channelOf(place: OnePlace, teamId: string | undefined): Promise<string> {
    if ('channel' in place) return place.channel;
    const users = 'mpim' in place ? place.mpim.join(',') : place.dm;
    return this.open(users, teamId);
  }

  /** The DM with `users` (comma-separated, as conversations.open takes them): opened once, then cached. */
  private async open(users: string, teamId: string | undefined): Promise<string> {
    const key = `${teamId ?? ''}:${users}`;
    const group = users.includes(',');
    const known = group ? this.usedGroup(key) : this.known.get(key);
    if (known) return known;
    return this.opening.get(key, async () => {
      const client = await this.clients.for(teamId);
      // A first DM under a burst may meet conversations.open's Tier 3 limit: the card waits, it is not lost.
      const opened = await retried(() => client.conversations.open({ users }), this.clock).catch(
        (error: unknown) => {
          throw missingScopeError('cannot open a DM', error) ?? error;
        },
      );
      const id = opened.channel?.id;
      if (!id) throw new RelayError('slack_bad_response', 'conversations.open returned no channel');
      if (group) this.keepGroup(key, id);
      else this.known.set(key, id);
      return id;
    });
  }

  /** The multi-person DM of `key`, if kept, now the most recently used. */
  private usedGroup(key: string): string | undefined {
    const id = this.groups.get(key);
    if (id === undefined) return undefined;
    this.groups.delete(key);
    this.groups.set(key, id);
    return id;
  }

  private keepGroup(key: string, id: string): void {
    this.groups.set(key, id);
    const oldest = this.groups.keys().next();
    if (this.groups.size > this.groupsKept && oldest.done !== true) this.groups.delete(oldest.value);
  }
}
