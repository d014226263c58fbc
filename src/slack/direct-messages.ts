// The bot's direct messages: a person's DM, or the multi-person DM of several, by workspace. chat.update needs
// the D…/G… channel id, not the user ids, so each is opened once (conversations.open) and its id cached for the
// replica's life; the cards of questions that come together wait for one open (SharedLookup).
import type { Clock } from '../clock.js';
import { RelayError } from '../relay/errors.js';
import type { OnePlace } from './card-readers.js';
import { retried } from './retried.js';
import { SharedLookup } from './shared-lookup.js';
import type { SlackClients } from './workspaces.js';

export class DirectMessages {
  /** Channel ids by `<teamId>:<users>`. */
  private readonly known = new Map<string, string>();
  private readonly opening = new SharedLookup<string>();

  constructor(
    private readonly clients: SlackClients,
    /** The waits between conversations.open's tries after a 429 (retried.ts). */
    private readonly clock: Pick<Clock, 'now' | 'schedule'>,
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
    const known = this.known.get(key);
    if (known) return known;
    return this.opening.get(key, async () => {
      const client = await this.clients.for(teamId);
      // A first DM under a burst may meet conversations.open's Tier 3 limit: the card waits, it is not lost.
      const opened = await retried(() => client.conversations.open({ users }), this.clock);
      const id = opened.channel?.id;
      if (!id) throw new RelayError('slack_bad_response', 'conversations.open returned no channel');
      this.known.set(key, id);
      return id;
    });
  }
}
