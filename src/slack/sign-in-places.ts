// Where a person's Connect messages are (src/slack/sign-in.ts), so that each ends once, on whichever replica its
// outcome is known: "Connected" when any of the person's sign-ins to the server completes (the callback's replica),
// refused when its own link was refused there, expired when its link's 10 minutes ran out (any replica's sweep).
// The port, and this replica's own places for a bot running alone; every replica's are state/sign-in-prompts.ts.
import { createHash } from 'node:crypto';
import type { Person } from '../mcp/index.js';

/** Where one Connect message is. */
export interface PromptPlace {
  channel: string;
  ts: string;
}

/** A Connect message once posted: where it is, its link (linkOf) and when that link expires (epoch ms). */
export interface PostedPrompt extends PromptPlace {
  link: string;
  expiresAt: number;
}

/** A Connect message whose link expired, taken by one sweep. */
export interface ExpiredPrompt {
  server: string;
  person: Person;
  place: PromptPlace;
}

/** Where each person's Connect messages for a server are, for whichever replica their outcome lands on. */
export interface PromptPlaces {
  /**
   * True when this prompt is to be posted: false when another (on any replica) was posted moments ago for the same
   * person and server asking at least `scopes`, whose link the person can use instead.
   */
  claim(server: string, person: Person, scopes: readonly string[]): Promise<boolean>;
  /** Marks the message of `link` as being posted: a sign-in completing meanwhile leaves it to note(). */
  posting(server: string, person: Person, link: string): Promise<void>;
  /**
   * Notes the posted message; false when the person's sign-in to `server` completed while it was posted (take()
   * found its mark): it is noted nowhere, and the caller turns it into "Connected".
   */
  note(server: string, person: Person, posted: PostedPrompt): Promise<boolean>;
  /** Forgets the mark of a message that could not be posted. */
  unmark(server: string, person: Person, link: string): Promise<void>;
  /**
   * The person's sign-in to `server` completed: their Connect messages noted, forgotten as they are read, and
   * whether one is still being posted (its poster updates it).
   */
  take(server: string, person: Person): Promise<{ places: PromptPlace[]; posting: boolean }>;
  /** The message of `link`, forgotten; undefined when it is not noted (another outcome took it). */
  takeLink(server: string, person: Person, link: string): Promise<PromptPlace | undefined>;
  /** Up to `max` messages whose link expired by `now`, each taken by one caller across replicas. */
  takeExpired(now: number, max: number): Promise<ExpiredPrompt[]>;
}

/**
 * A Connect link's name among its person's messages: a digest of its `state` (22 base64url characters), so the
 * state itself, which opens the sign-in, is not copied into the Slack side's records.
 */
export function linkOf(state: string): string {
  return createHash('sha256').update(state).digest('base64url').slice(0, 22);
}

const keyOf = (server: string, person: Person): string => `${person.teamId}:${person.userId}:${server}`;

interface Noted {
  server: string;
  person: Person;
  posted: PostedPrompt;
}

/** The Connect messages this replica posted, per person and server. */
export class ReplicaPromptPlaces implements PromptPlaces {
  private readonly noted = new Map<string, Map<string, Noted>>();
  private readonly marks = new Map<string, Set<string>>();

  /** One replica alone: each prompt is posted. */
  claim(): Promise<boolean> {
    return Promise.resolve(true);
  }

  posting(server: string, person: Person, link: string): Promise<void> {
    const key = keyOf(server, person);
    this.marks.set(key, (this.marks.get(key) ?? new Set()).add(link));
    return Promise.resolve();
  }

  note(server: string, person: Person, posted: PostedPrompt): Promise<boolean> {
    const key = keyOf(server, person);
    if (this.marks.get(key)?.delete(posted.link) !== true) return Promise.resolve(false);
    this.noted.set(
      key,
      (this.noted.get(key) ?? new Map<string, Noted>()).set(posted.link, { server, person, posted }),
    );
    return Promise.resolve(true);
  }

  unmark(server: string, person: Person, link: string): Promise<void> {
    this.marks.get(keyOf(server, person))?.delete(link);
    return Promise.resolve();
  }

  take(server: string, person: Person): Promise<{ places: PromptPlace[]; posting: boolean }> {
    const key = keyOf(server, person);
    const places = [...(this.noted.get(key)?.values() ?? [])].map(({ posted }) => placeOf(posted));
    const posting = (this.marks.get(key)?.size ?? 0) > 0;
    this.noted.delete(key);
    this.marks.delete(key);
    return Promise.resolve({ places, posting });
  }

  takeLink(server: string, person: Person, link: string): Promise<PromptPlace | undefined> {
    const messages = this.noted.get(keyOf(server, person));
    const found = messages?.get(link);
    messages?.delete(link);
    return Promise.resolve(found === undefined ? undefined : placeOf(found.posted));
  }

  takeExpired(now: number, max: number): Promise<ExpiredPrompt[]> {
    const expired: ExpiredPrompt[] = [];
    for (const messages of this.noted.values())
      for (const [link, { server, person, posted }] of messages) {
        if (expired.length >= max || posted.expiresAt > now) continue;
        messages.delete(link);
        expired.push({ server, person, place: placeOf(posted) });
      }
    return Promise.resolve(expired);
  }
}

const placeOf = ({ channel, ts }: PromptPlace): PromptPlace => ({ channel, ts });
