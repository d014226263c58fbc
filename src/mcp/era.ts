// A server's era (2025 `initialize` or 2026-07-28 `server/discover`) as the hub last found it, so that further
// sessions connect without probing again (over stdio the SDK probes on a second child process). The SDK leaves
// its freshness to the host, and a server can change era under a link that stays up: a stateless HTTP server
// upgraded in place from 2025 to 2026 keeps answering the 2025 control link (a v2 server still serves 2025
// callers statelessly), while its 2026 tools refuse such callers with an isError result whose text is all it
// says. So the verdict is forgotten when a connect fails, the control link is lost, or a 2025 session's request
// is refused with the SDK's UnsupportedProtocolVersion (a server serving 2026 only); and it is trusted for
// ERA_VERDICT_TTL_MS only, after which the next session opened probes again.
import {
  isJSONRPCErrorResponse,
  ProtocolError,
  ProtocolErrorCode,
  SdkHttpError,
  type PriorDiscovery,
} from '@modelcontextprotocol/client';

/**
 * How long an era verdict is trusted, in ms (10 min): the longest people of a server upgraded in place keep
 * getting its refusal to ask a 2025 client anything, against one more probe per server per period (one
 * `server/discover` round trip, over stdio one short-lived child process).
 */
export const ERA_VERDICT_TTL_MS = 10 * 60_000;

/** What a connection found: its era, for later connections (McpSession.era). */
export interface Judged {
  era: PriorDiscovery | undefined;
}

export class EraVerdict {
  private verdict: { prior: PriorDiscovery; at: number } | undefined;
  /** A connection is probing again for a verdict past its time; the others keep that verdict meanwhile. */
  private reprobing = false;

  /** `onChanged`: a probe found another era than the verdict held (sessions opened under it speak the old one). */
  constructor(
    private readonly now: () => number,
    private readonly onChanged: () => void,
  ) {}

  /**
   * Opens a connection from the verdict, or probing when there is none (every connection then probes, as at
   * first) or when it is past its time (this one connection probes); keeps what a probe found. A failed open
   * forgets the verdict, unless `signal` (the open's) aborted it: nothing the server did.
   */
  async connect<S extends Judged>(
    open: (prior: PriorDiscovery | undefined) => Promise<S>,
    signal?: AbortSignal,
  ): Promise<S> {
    const held = this.verdict;
    const expired = held !== undefined && this.now() - held.at >= ERA_VERDICT_TTL_MS;
    const reprobe = expired && !this.reprobing;
    const prior = held === undefined || reprobe ? undefined : held.prior;
    if (reprobe) this.reprobing = true;
    try {
      const session = await open(prior);
      if (prior === undefined) this.found(held, session.era);
      return session;
    } catch (error) {
      if (signal?.aborted !== true) this.forget();
      throw error;
    } finally {
      if (reprobe) this.reprobing = false;
    }
  }

  /** The server may have changed era: the next connections probe. */
  forget(): void {
    this.verdict = undefined;
  }

  /** Forgets a verdict of era `kind`, which something the server did contradicts; true when it did. */
  doubt(kind: PriorDiscovery['kind']): boolean {
    if (this.verdict?.prior.kind !== kind) return false;
    this.forget();
    return true;
  }

  private found(held: { prior: PriorDiscovery } | undefined, era: PriorDiscovery | undefined): void {
    this.verdict = era === undefined ? undefined : { prior: era, at: this.now() };
    if (held !== undefined && era !== undefined && held.prior.kind !== era.kind) this.onChanged();
  }
}

/**
 * The SDK's refusal of a 2025-era request by a server that serves 2026-07-28 only (`legacy: 'reject'`):
 * UnsupportedProtocolVersion (-32022), in-band, or as the JSON-RPC error in the body of the HTTP 400 that the
 * SDK delivers in-band to 2026 exchanges only (to a 2025 one it is an SdkHttpError carrying the body).
 */
export function refusesLegacyClient(error: unknown): boolean {
  const unsupported: number = ProtocolErrorCode.UnsupportedProtocolVersion;
  if (error instanceof ProtocolError) return error.code === unsupported;
  if (!(error instanceof SdkHttpError) || error.status !== 400) return false;
  return rpcErrorCode(error.data.text) === unsupported;
}

/** The code of the JSON-RPC error response `body` holds, if it holds one. */
function rpcErrorCode(body: unknown): number | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message: unknown = JSON.parse(body);
    return isJSONRPCErrorResponse(message) ? message.error.code : undefined;
  } catch {
    return undefined;
  }
}
