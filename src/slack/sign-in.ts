// Signing in to MCP servers from Slack (issue #20): the SignInPrompter the MCP side calls when a person's call
// needs sign-in (a private message with a Connect button), and each such message ended once its link is spent,
// on whichever replica that is known (sign-in-places.ts): "Connected" once any of the person's sign-ins to the
// server completed, refused when its own link was refused at the callback, expired once its link's 10 minutes
// ran out (sign-in-expiries.ts). The tokens never come here: only the authorization page's URL, the server and
// scopes.
import {
  signInDone,
  signInExpired,
  signInPrompt,
  signInRefused,
  type SignInRefusal,
  type SlackMessage,
} from '../../blocks/index.js';
import { systemClock, type Clock } from '../clock.js';
import { STATE_TTL_SEC, type Person, type SignInNeeded, type SignInPrompter } from '../mcp/index.js';
import type { Locales } from './locales.js';
import type { Messages } from './messages.js';
import { startUrlOf } from './sign-in-links.js';
import { linkOf, ReplicaPromptPlaces, type PromptPlace, type PromptPlaces } from './sign-in-places.js';

export interface SlackSignInDeps {
  /** Posts and updates the prompt, each call made again after a 429's Retry-After or a passing failure. */
  messages: Messages;
  locales: Pick<Locales, 'of'>;
  dmOf(userId: string, teamId: string | undefined): Promise<string>;
  /** Shared by the replicas (state/sign-in-prompts.ts); absent: this replica's own, for one replica alone. */
  places?: PromptPlaces;
  /** What a link's expiry is counted by; default the system clock. */
  clock?: Pick<Clock, 'now'>;
}

/** What one expiry sweep did: the messages it marked expired, and the updates Slack refused or that failed. */
export interface ExpirySweep {
  taken: number;
  failed: unknown[];
}

export class SlackSignIn implements SignInPrompter {
  private readonly places: PromptPlaces;
  private readonly clock: Pick<Clock, 'now'>;

  constructor(private readonly deps: SlackSignInDeps) {
    this.places = deps.places ?? new ReplicaPromptPlaces();
    this.clock = deps.clock ?? systemClock;
  }

  async prompt(need: SignInNeeded): Promise<void> {
    const { person, server } = need;
    // The calls that skip their own message wait for any sign-in of the person to the server (wakes.ts), so the
    // other message's link wakes them too.
    if (!(await this.places.claim(server, person, need.scopes))) return;
    // The link's `state` was issued just before: its 10 minutes counted from now end a little after its own, so
    // a live link is never called expired.
    const expiresAt = this.clock.now() + STATE_TTL_SEC * 1000;
    const link = linkOf(need.authorizationUrl.searchParams.get('state') ?? '');
    // Marked before it is posted, so a sign-in completing before it is noted leaves its update to note().
    await this.places.posting(server, person, link);
    const posted = await this.post(need).catch(async (error: unknown) => {
      await this.places.unmark(server, person, link).catch(() => undefined);
      throw error;
    });
    if (await this.places.note(server, person, { ...posted.at, link, expiresAt })) return;
    await this.update(person, posted.at, signInDone(server, posted.locale));
  }

  /** Posts the Connect message in the person's DM, in their language. */
  private async post(need: SignInNeeded) {
    const { person } = need;
    const [locale, channel] = await Promise.all([
      this.deps.locales.of(person.userId, person.teamId),
      this.deps.dmOf(person.userId, person.teamId),
    ]);
    // The button opens the bot's start page, never the authorization server's directly: the start page names
    // whose account the link connects before anyone signs in (sign-in-links.ts).
    const authorizationUrl = startUrlOf(need.server, need.authorizationUrl);
    const message = signInPrompt({ ...need, authorizationUrl }, locale);
    const ts = await this.deps.messages.post({ channel, teamId: person.teamId }, message);
    return { at: { channel, ts }, locale };
  }

  /**
   * Tells the person the sign-in to `server` completed: each of their Connect messages for it loses its button
   * (whichever replica posted it; one still being posted, by its poster); with none found (their links' time
   * over), "Connected" is a new message.
   */
  async connected(server: string, person: Person): Promise<void> {
    const locale = await this.deps.locales.of(person.userId, person.teamId);
    const message = signInDone(server, locale);
    const { places, posting } = await this.places.take(server, person);
    if (places.length > 0 || posting) {
      await Promise.all(places.map((at) => this.update(person, at, message)));
      return;
    }
    const channel = await this.deps.dmOf(person.userId, person.teamId);
    await this.deps.messages.post({ channel, teamId: person.teamId }, message);
  }

  /**
   * The callback refused the link of `state` (`why`): its Connect message, whichever replica posted it, says so
   * and how to try again. Nothing when it was not found (another outcome took it, or its time is over).
   */
  async refused(server: string, person: Person, state: string, why: SignInRefusal): Promise<void> {
    const place = await this.places.takeLink(server, person, linkOf(state));
    if (place === undefined) return;
    const locale = await this.deps.locales.of(person.userId, person.teamId);
    await this.update(person, place, signInRefused(server, why, locale));
  }

  /** Turns up to `max` Connect messages whose link expired by now, on any replica, into "expired". */
  async expire(max: number): Promise<ExpirySweep> {
    const expired = await this.places.takeExpired(this.clock.now(), max);
    const updates = await Promise.allSettled(
      expired.map(async ({ server, person, place }) => {
        const locale = await this.deps.locales.of(person.userId, person.teamId);
        await this.update(person, place, signInExpired(server, locale));
      }),
    );
    const failed: unknown[] = [];
    for (const update of updates) if (update.status === 'rejected') failed.push(update.reason);
    return { taken: expired.length, failed };
  }

  private update(person: Person, at: PromptPlace, message: SlackMessage): Promise<void> {
    return this.deps.messages.update({ ...at, teamId: person.teamId }, message);
  }
}
