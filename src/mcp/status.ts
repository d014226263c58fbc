// Per-server health for `/mcp servers` and `/readyz` (semantics on ServerStatus in types.ts).
import type { ServerStatus } from './types.js';

const MAX_ERROR_CHARS = 300;

interface Health {
  state: ServerStatus['state'];
  sessions: number;
  lastError?: string;
}

/** The error's message followed by its causes' messages: "could not connect to x: fetch failed: ECONNREFUSED". */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  // Bounded, in case a cause chain loops.
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const message =
      current instanceof Error ? current.message : typeof current === 'string' ? current : 'non-Error value';
    if (message !== '' && !parts.includes(message)) parts.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  const line = parts.join(': ').replace(/\s+/g, ' ');
  return line.length > MAX_ERROR_CHARS ? `${line.slice(0, MAX_ERROR_CHARS - 1)}…` : line;
}

export class HealthBook {
  private readonly byServer = new Map<string, Health>();

  constructor(servers: string[]) {
    for (const server of servers) this.byServer.set(server, { state: 'idle', sessions: 0 });
  }

  opened(server: string): void {
    const health = this.get(server);
    health.sessions += 1;
    health.state = 'connected';
  }

  /** `dropped`: the connection ended on its own (server exit, network), not by the hub closing it. */
  closed(server: string, dropped: boolean): void {
    const health = this.get(server);
    health.sessions -= 1;
    if (!dropped) return;
    health.lastError = 'connection closed unexpectedly';
    if (health.sessions === 0) health.state = 'failed';
  }

  failed(server: string, error: unknown): void {
    const health = this.get(server);
    health.state = 'failed';
    health.lastError = describeError(error);
  }

  status(): ServerStatus[] {
    return [...this.byServer].map(([server, health]) => {
      const status: ServerStatus = { server, state: health.state };
      if (health.sessions > 0) {
        status.detail = `${health.sessions} open session${health.sessions === 1 ? '' : 's'}`;
      }
      if (health.lastError !== undefined) status.lastError = health.lastError;
      return status;
    });
  }

  private get(server: string): Health {
    let health = this.byServer.get(server);
    if (health === undefined) {
      health = { state: 'idle', sessions: 0 };
      this.byServer.set(server, health);
    }
    return health;
  }
}
