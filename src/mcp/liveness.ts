// Whether a session's server still answers, after a transport error. A Streamable HTTP stream that breaks without
// a resumable event id only raises an error in the SDK: the request it carried would wait forever. A server that
// still answers keeps the session (its stream may be resumed); one that does not is gone, and closing its
// connection ends the session, failing its call at once (session.ts).
import type { Client } from '@modelcontextprotocol/client';
import type { McpLogger } from './types.js';

/** After a transport error, how long the server has to answer before its connection is closed, in ms. */
const LIVENESS_PING_MS = 5_000;

/** A ping, or for a 2026-07-28 server (which has no ping) a `server/discover`; rejects past `timeoutMs`. */
export async function answersWithin(client: Client, timeoutMs: number): Promise<void> {
  if (client.getProtocolEra() === 'modern') await client.discover({ timeout: timeoutMs });
  else await client.ping({ timeout: timeoutMs });
}

/** One connection's check, one at a time: further errors while one is under way start none. */
export class LivenessCheck {
  private checking = false;

  constructor(
    private readonly client: Client,
    private readonly server: string,
    private readonly logger?: McpLogger,
  ) {}

  /** Closes the connection unless the server answers within LIVENESS_PING_MS. */
  start(): void {
    if (this.checking) return;
    this.checking = true;
    answersWithin(this.client, LIVENESS_PING_MS)
      .catch(async (error: unknown) => {
        this.logger?.warn({ server: this.server, err: error }, 'MCP server stopped answering');
        await this.client.close();
      })
      .catch(() => undefined)
      .finally(() => (this.checking = false));
  }
}
