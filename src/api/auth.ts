// Bearer tokens, compared in constant time: the presented token and every client's token are hashed with
// SHA-256 (equal lengths for timingSafeEqual) and every client is compared, so neither the time taken nor an
// early exit tells how much of a token matched or which client's it nearly was.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ApiClientConfig } from '../config/index.js';
import { ApiError } from './errors.js';

export type ApiClient = Omit<ApiClientConfig, 'token'>;

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

export class Clients {
  private readonly hashed: { client: ApiClient; hash: Buffer }[];

  constructor(clients: readonly ApiClientConfig[]) {
    this.hashed = clients.map(({ token, ...client }) => ({ client, hash: sha256(token) }));
  }

  get enabled(): boolean {
    return this.hashed.length > 0;
  }

  /** The client whose token the request carries; ApiError('unauthorized') otherwise. */
  authenticate(req: IncomingMessage): ApiClient {
    const found = this.fromAuthorization(req.headers.authorization);
    if (!found) throw new ApiError('unauthorized', 'Send Authorization: Bearer <token> with a valid token.');
    return found;
  }

  /** The client an `Authorization: Bearer <token>` header names, or undefined. */
  fromAuthorization(header: string | undefined): ApiClient | undefined {
    const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
    const presented = sha256(match?.[1] ?? '');
    let found: ApiClient | undefined;
    for (const { client, hash } of this.hashed) {
      if (timingSafeEqual(hash, presented) && match) found = client;
    }
    return found;
  }

  /** The client with this name (one authenticated earlier). */
  named(name: string): ApiClient | undefined {
    return this.hashed.find(({ client }) => client.name === name)?.client;
  }
}

/** Whether `client` may name `target` (a user, user-group or channel id) in `to`. */
export function mayTarget(client: ApiClient, target: string): boolean {
  return client.targets === undefined || client.targets.includes(target);
}
