// Signing in to MCP servers from Slack (issue #20): the SignInPrompter the MCP side calls when a person's call
// needs sign-in (a private message with a Connect button), and that message turned into "Connected" once the
// callback completed. The tokens never come here: only the authorization page's URL, the server and scopes.
import { signInDone, signInPrompt } from '../../blocks/index.js';
import type { Person, SignInNeeded, SignInPrompter } from '../mcp/index.js';
import type { Locales } from './locales.js';
import type { Messages } from './messages.js';
import { startUrlOf } from './sign-in-links.js';

export interface SlackSignInDeps {
  /** Posts and updates the prompt, each call made again after a 429's Retry-After or a passing failure. */
  messages: Messages;
  locales: Pick<Locales, 'of'>;
  dmOf(userId: string, teamId: string | undefined): Promise<string>;
}

const keyOf = (server: string, person: Person): string => `${person.teamId}:${person.userId}:${server}`;

export class SlackSignIn implements SignInPrompter {
  /**
   * The latest Connect message per person and server, posted from this replica. A callback completed on
   * another replica cannot update it, so that one posts "Connected" as a new message instead.
   */
  private readonly prompts = new Map<string, { channel: string; ts: string }>();

  constructor(private readonly deps: SlackSignInDeps) {}

  async prompt(need: SignInNeeded): Promise<void> {
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
    this.prompts.set(keyOf(need.server, person), { channel, ts });
  }

  /** Tells the person the sign-in to `server` completed: their Connect message loses its button. */
  async connected(server: string, person: Person): Promise<void> {
    const locale = await this.deps.locales.of(person.userId, person.teamId);
    const message = signInDone(server, locale);
    const key = keyOf(server, person);
    const prompt = this.prompts.get(key);
    this.prompts.delete(key);
    if (prompt !== undefined) {
      await this.deps.messages.update({ ...prompt, teamId: person.teamId }, message);
      return;
    }
    const channel = await this.deps.dmOf(person.userId, person.teamId);
    await this.deps.messages.post({ channel, teamId: person.teamId }, message);
  }
}
