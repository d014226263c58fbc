// Sign-ins completed, announced to every replica: a person's call may wait on replica A while their browser's
// callback lands on replica B. B publishes on one Redis channel (`${prefix}:auth:signed-in`); each replica's
// one subscriber connection wakes the calls it has waiting for that server and person. A message names only
// the server and the Slack ids, never a token. A message lost in a Redis outage leaves the call to its
// bounded wait (SignInError sign_in_timeout), and the person's next call finds their tokens in the vault.
import type { RedisClient } from '../../redis/index.js';
import { Wakers, type Waiting } from '../../wakers.js';
import type { Person } from './types.js';

/** `done` resolves when a sign-in of this server and person completes on any replica. */
export type SignInWaiter = Waiting;

export class SignInWakes {
  private readonly waiters = new Wakers();

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
      if (channel === this.channel) this.waiters.wake(message);
    });
    await this.subscriber.subscribe(this.channel);
  }

  /** Starts waiting for `person`'s sign-in to `server`; register before the person is sent to sign in. */
  wait(server: string, person: Person): SignInWaiter {
    return this.waiters.wait(idOf(server, person));
  }

  /** Tells every replica (this one included) that `person` signed in to `server`. */
  async announce(server: string, person: Person): Promise<void> {
    await this.publisher.publish(this.channel, idOf(server, person));
  }

  /** How many calls wait on this replica (tests). */
  get waiting(): number {
    return this.waiters.size;
  }

  async stop(): Promise<void> {
    await this.subscriber.unsubscribe(this.channel).catch(() => undefined);
    this.waiters.clear();
  }
}

/** JSON keeps any (server, workspace, user) triples apart, whatever characters they contain. */
function idOf(server: string, person: Person): string {
  return JSON.stringify([server, person.teamId, person.userId]);
}
