// Sign-ins ended, announced to every replica: a person's call may wait on replica A while their browser's
// callback lands on replica B. B publishes on one Redis channel (`${prefix}:auth:signed-in`); each replica's
// one subscriber connection wakes the calls it has waiting for that server and person, with the outcome: signed
// in (the call goes on), denied at the sign-in page, or failed at the callback (the code refused: the link is
// spent either way), where the call ends at once instead of waiting out its bound.
// A message names only the server and the Slack ids, never a token. A message lost in a Redis outage leaves
// the call to its bounded wait (SignInError sign_in_timeout), and the person's next call finds their tokens in
// the vault.
import type { RedisClient } from '../../redis/index.js';
import { Wakers } from '../../wakers.js';
import type { Person } from './types.js';

/** How a sign-in the person was sent to ended: `failed` when its callback could not exchange the code. */
export type SignInOutcome = 'signed_in' | 'denied' | 'failed';

/** `done` resolves with the outcome when a sign-in of this server and person ends on any replica. */
export interface SignInWaiter {
  done: Promise<SignInOutcome>;
  /** Forgets this wait; `done` then never resolves. */
  cancel(): void;
}

/**
 * The message of an outcome other than signed_in: its prefix, then the same id as a sign-in's. A replica of an
 * earlier version reads it as the id of nobody's sign-in and ignores it (its calls keep their bounded wait).
 */
const PREFIXES = { denied: 'denied:', failed: 'failed:' } as const;
type EndedOutcome = keyof typeof PREFIXES;
const ENDED: readonly EndedOutcome[] = ['denied', 'failed'];

export class SignInWakes {
  private readonly signedIn = new Wakers();
  private readonly ended: Record<EndedOutcome, Wakers> = { denied: new Wakers(), failed: new Wakers() };

  /**
   * `subscriber` is given over to this class (a connection in subscriber mode takes no other commands);
   * `publisher` is any command connection.
   */
  constructor(
    private readonly subscriber: RedisClient,
    private readonly publisher: RedisClient,
    private readonly channel: string,
  ) {}

  /** Subscribes; ioredis subscribes again by itself after a reconnect. */
  async start(): Promise<void> {
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const ended = ENDED.find((outcome) => message.startsWith(PREFIXES[outcome]));
      if (ended === undefined) this.signedIn.wake(message);
      else this.ended[ended].wake(message.slice(PREFIXES[ended].length));
    });
    await this.subscriber.subscribe(this.channel);
  }

  /** Starts waiting for `person`'s sign-in to `server`; register before the person is sent to sign in. */
  wait(server: string, person: Person): SignInWaiter {
    const id = idOf(server, person);
    const waits = [
      { outcome: 'signed_in' as const, waiting: this.signedIn.wait(id) },
      ...ENDED.map((outcome) => ({ outcome, waiting: this.ended[outcome].wait(id) })),
    ];
    const cancel = (): void => waits.forEach(({ waiting }) => waiting.cancel());
    const done = Promise.race(
      waits.map(({ outcome, waiting }) => waiting.done.then((): SignInOutcome => outcome)),
    );
    // Once one outcome came, the other waits are dropped (they would never be woken for this sign-in).
    return { done: done.finally(cancel), cancel };
  }

  /** Tells every replica (this one included) how `person`'s sign-in to `server` ended. */
  async announce(server: string, person: Person, outcome: SignInOutcome = 'signed_in'): Promise<void> {
    const id = idOf(server, person);
    await this.publisher.publish(this.channel, outcome === 'signed_in' ? id : `${PREFIXES[outcome]}${id}`);
  }

  /** How many calls wait on this replica (tests). */
  get waiting(): number {
    return this.signedIn.size;
  }

  async stop(): Promise<void> {
    await this.subscriber.unsubscribe(this.channel).catch(() => undefined);
    this.signedIn.clear();
    for (const outcome of ENDED) this.ended[outcome].clear();
  }
}

/** JSON keeps any (server, workspace, user) triples apart, whatever characters they contain. */
function idOf(server: string, person: Person): string {
  return JSON.stringify([server, person.teamId, person.userId]);
}
