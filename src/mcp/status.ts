// One server's health for `/mcp servers` and `/readyz` (semantics on ServerStatus in types.ts). Data only: the
// Slack side words it in each person's language.
import { truncate } from '../../blocks/index.js';
import { McpClientError, type ServerStatus } from './types.js';

const MAX_ERROR_CHARS = 300;

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
  return truncate(line, MAX_ERROR_CHARS);
}

/** A session of `server` that closed without being asked to (the server or the network dropped it). */
export function droppedError(server: string): McpClientError {
  return new McpClientError('connection_closed', server, 'connection closed unexpectedly');
}

/** A failure as ServerStatus shows it: the whole line (lastError) and the same as data (lastFailure). */
interface Failure {
  line: string;
  data: NonNullable<ServerStatus['lastFailure']>;
}

function failureOf(error: unknown): Failure {
  const line = describeError(error);
  if (!(error instanceof McpClientError)) return { line, data: { cause: line } };
  // The bot's own message is its English for the code; only the causes are others' words.
  const cause = error.cause === undefined ? '' : describeError(error.cause);
  return { line, data: { code: error.code, ...(cause === '' ? {} : { cause }) } };
}

export class Health {
  private state: ServerStatus['state'] = 'idle';
  private lastFailure: Failure | undefined;
  private nextRetryAt: number | undefined;
  /** Sessions open for people (the control link not counted). */
  sessions = 0;
  /** The protocol revision of the latest connection that succeeded (see ServerStatus). */
  protocolVersion: string | undefined;
  /** Set by quiet(): the bot is stopping, and what fails from then on fails because of that. */
  private quieted = false;

  /** `onChange` hears every up() and down(), with the status after it. */
  constructor(
    readonly server: string,
    private readonly onChange: (status: ServerStatus) => void = () => undefined,
  ) {}

  get current(): ServerStatus['state'] {
    return this.state;
  }

  up(): void {
    const changed = this.state !== 'connected';
    this.state = 'connected';
    this.nextRetryAt = undefined;
    if (changed) this.onChange(this.status());
  }

  /**
   * The bot is stopping: a failure from now on (its stdio servers exit with it) changes nothing and is told to
   * nobody, so no warning and no failure metric. One way: nothing turns it off; up() still counts.
   */
  quiet(): void {
    this.quieted = true;
  }

  /** Something failed; the server is 'reconnecting' when a retry is due at `retryAt`, else 'failed'. */
  down(error: unknown, retryAt: number | undefined): void {
    if (this.quieted) return;
    this.lastFailure = failureOf(error);
    this.state = retryAt === undefined ? 'failed' : 'reconnecting';
    this.nextRetryAt = retryAt;
    this.onChange(this.status());
  }

  /** A failure that leaves the state as it is (one person's connect failed while the server is fine). */
  noteError(error: unknown): void {
    if (this.quieted) return;
    this.lastFailure = failureOf(error);
  }

  status(): ServerStatus {
    const status: ServerStatus = { server: this.server, state: this.state };
    if (this.sessions > 0) status.sessions = this.sessions;
    if (this.lastFailure !== undefined) {
      status.lastError = this.lastFailure.line;
      status.lastFailure = this.lastFailure.data;
    }
    if (this.nextRetryAt !== undefined) status.nextRetryAt = this.nextRetryAt;
    if (this.protocolVersion !== undefined) status.protocolVersion = this.protocolVersion;
    return status;
  }
}
