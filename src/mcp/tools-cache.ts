// One server's tool list as its link keeps it: listed over the control link, or for a server each person signs in
// to (which has none) in the asking person's own session, and kept until the server says it changed
// (`notifications/tools/list_changed`) or the listing fails, so that the next caller asks again.
import { withSignIn } from './auth/sign-in.js';
import type { SessionPool } from './pool.js';
import type { McpSession } from './session.js';
import type { ToolListing } from './tool-listing.js';
import { McpClientError } from './types.js';
import type { Origin } from '../relay/types.js';

/** A listing that failed: the call goes to the server as named (the server answers for a tool it lacks). */
const UNLISTED: ToolListing = { tools: [], refused: [] };

/** Where a link's listings are made. */
export interface ListingPlaces {
  server: string;
  /** Each person signs in to the server: it is listed in a person's session, never the control link's. */
  personal: () => boolean;
  control: () => Promise<McpSession>;
  pool: (person: Origin) => SessionPool;
}

export class ToolsCache {
  private listing: Promise<ToolListing> | undefined;

  constructor(private readonly places: ListingPlaces) {}

  /** The server's tools: from the cache, else listed over the control link (or `person`'s own session). */
  async list(person?: Origin): Promise<ToolListing> {
    if (this.listing !== undefined) return this.listing;
    const { server, personal, control, pool } = this.places;
    if (!personal()) {
      return this.cache(control().then((session) => withSignIn(session, () => session.listTools())));
    }
    if (person === undefined)
      throw new McpClientError(
        'connect_failed',
        server,
        `${server} lists its tools to signed-in people only`,
      );
    const sessions = pool(person);
    const session = await sessions.acquire();
    try {
      return await this.cache(withSignIn(session, () => session.listTools()));
    } finally {
      sessions.release(session);
    }
  }

  /** The listing a call on `session` is checked against: the cache, else listed there; UNLISTED if that fails. */
  forCall(session: McpSession): Promise<ToolListing> {
    return (this.listing ?? this.cache(session.listTools())).catch(() => UNLISTED);
  }

  /** Dropped, not refetched here: the next listing fetches the new list. */
  changed(): void {
    this.listing = undefined;
  }

  private cache(listing: Promise<ToolListing>): Promise<ToolListing> {
    this.listing = listing;
    // A failed listing must not stay cached: the next caller asks again.
    listing.catch(() => {
      if (this.listing === listing) this.listing = undefined;
    });
    return listing;
  }
}
