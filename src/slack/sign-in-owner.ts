// Who a Connect link belongs to, as the start page names them (sign-in-start.ts): the person's Slack display
// name (else real name) and their UI language, from one users.info. The page must answer promptly, so a lookup
// slower than OWNER_LOOKUP_MS, or one that fails, names them by user id only, in English.
import { localeOf, type Locale } from '../../blocks/index.js';
import type { Clock } from '../clock.js';
import type { Person } from '../mcp/index.js';
import { answerWithin } from '../settle.js';
import type { SlackClients } from './workspaces.js';

/** How long the start page waits for users.info before naming the person by id only, in ms. */
export const OWNER_LOOKUP_MS = 2_000;

export interface LinkOwner {
  /** Their display name, else real name; absent when Slack did not say in time. */
  name?: string;
  /** Their Slack locale's UI language; absent when unknown (the page is then in English). */
  locale?: Locale;
}

/** Looks up a link's owner; never rejects. */
export type OwnerLookup = (person: Person) => Promise<LinkOwner>;

export function slackOwners(clients: SlackClients, clock: Pick<Clock, 'schedule'>): OwnerLookup {
  const lookup = async ({ teamId, userId }: Person): Promise<LinkOwner> => {
    const client = await clients.for(teamId);
    const { user } = await client.users.info({ user: userId, include_locale: true });
    const name = [user?.profile?.display_name, user?.real_name].find(
      (n) => n !== undefined && n.trim() !== '',
    );
    return {
      ...(name === undefined ? {} : { name }),
      ...(user?.locale === undefined ? {} : { locale: localeOf(user.locale) }),
    };
  };
  return (person) => answerWithin(lookup(person), OWNER_LOOKUP_MS, {}, clock).catch(() => ({}));
}

/**
 * The bot token's workspace (auth.test), asked once it is needed and remembered once Slack answered: a Connect link
 * of a one-workspace deployment names its owner without a team id, and Sign in with Slack names one.
 */
export function homeTeamOf(clients: SlackClients): () => Promise<string> {
  let known: string | undefined;
  return async () => {
    if (known !== undefined) return known;
    const { team_id: team } = await (await clients.for()).auth.test();
    if (team === undefined) throw new Error('auth.test named no workspace');
    known = team;
    return team;
  };
}
