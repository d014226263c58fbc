// Signing in to MCP servers from Slack (issue #20): the SignInPrompter the MCP side calls when a person's call
// needs sign-in (a private message with a Connect button), and that message turned into "Connected" once the
// callback completed, on whichever replica it landed. The tokens never come here: only the authorization page's
// URL, the server and scopes.
import { signInDone, signInPrompt } from '../../blocks/index.js';
import type { Person, SignInNeeded, SignInPrompter } from '../mcp/index.js';
import type { Locales } from './locales.js';
import type { Messages } from './messages.js';
import { startUrlOf } from './sign-in-links.js';

/** Where one Connect message is. */
export interface PromptPlace {
  channel: string;
  ts: string;
}

/** Where each person's Connect messages for a server are, for whichever replica their callback lands on. */
export interface PromptPlaces {
  /**
   * True when this prompt is to be posted: false when another (on any replica) was posted moments ago for the same
   * person and server asking at least `scopes`, whose link the person can use instead.
   */
  claim(server: string, person: Person, scopes: readonly string[]): Promise<boolean>;
  note(server: string, person: Person, at: PromptPlace): Promise<void>;
  /** The person's Connect messages for `server` noted and not yet taken, forgotten as they are read. */
  take(server: string, person: Person): Promise<PromptPlace[]>;
}

export interface SlackSignInDeps {
  /** Posts and updates the prompt, each call made again after a 429's Retry-After or a passing failure. */
  messages: Messages;
  locales: Pick<Locales, 'of'>;
  dmOf(userId: string, teamId: string | undefined): Promise<string>;
  /** Shared by the replicas (state/sign-in-prompts.ts); absent: this replica's own, for one replica alone. */
  places?: PromptPlaces;
}

export class SlackSignIn implements SignInPrompter {
  private readonly places: PromptPlaces;

  constructor(private readonly deps: SlackSignInDeps) {
    this.places = deps.places ?? new ReplicaPromptPlaces();
  }

  async prompt(need: SignInNeeded): Promise<void> {
    const { person } = need;
    // The calls that skip their own message wait for any sign-in of the person to the server (wakes.ts), so the
    // other message's link wakes them too.
    if (!(await this.places.claim(need.server, person, need.scopes))) return;
    const [locale, channel] = await Promise.all([
      this.deps.locales.of(person.userId, person.teamId),
      this.deps.dmOf(person.userId, person.teamId),
    ]);
    // The button opens the bot's start page, never the authorization server's directly: the start page names
    // whose account the link connects before anyone signs in (sign-in-links.ts).
    const authorizationUrl = startUrlOf(need.server, need.authorizationUrl);
    const message = signInPrompt({ ...need, authorizationUrl }, locale);
    const ts = await this.deps.messages.post({ channel, teamId: person.teamId }, message);
    await this.places.note(need.server, person, { channel, ts });
  }

  /**
   * Tells the person the sign-in to `server` completed: each of their Connect messages for it loses its button
   * (whichever replica posted it); with none found (their links' 10 minutes over), "Connected" is a new message.
   */
  async connected(server: string, person: Person): Promise<void> {
    const locale = await this.deps.locales.of(person.userId, person.teamId);
    const message = signInDone(server, locale);
    const prompts = await this.places.take(server, person);
    if (prompts.length > 0) {
      const { teamId } = person;
      await Promise.all(prompts.map((at) => this.deps.messages.update({ ...at, teamId }, message)));
      return;
    }
    const channel = await this.deps.dmOf(person.userId, person.teamId);
    await this.deps.messages.post({ channel, teamId: person.teamId }, message);
  }
}

const keyOf = (server: string, person: Person): string => `${person.teamId}:${person.userId}:${server}`;

/** The Connect messages this replica posted, per person and server. */
class ReplicaPromptPlaces implements PromptPlaces {
  private readonly places = new Map<string, PromptPlace[]>();

  /** One replica alone: each prompt is posted. */
  claim(): Promise<boolean> {
    return Promise.resolve(true);
  }

  note(server: string, person: Person, at: PromptPlace): Promise<void> {
    const key = keyOf(server, person);
    this.places.set(key, [...(this.places.get(key) ?? []), at]);
    return Promise.resolve();
  }

  take(server: string, person: Person): Promise<PromptPlace[]> {
    const key = keyOf(server, person);
    const taken = this.places.get(key) ?? [];
    this.places.delete(key);
    return Promise.resolve(taken);
  }
}
