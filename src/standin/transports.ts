// How the driver's requests reach the bot. Slack has two ways, and the driver builds the same payloads for
// both: HTTP (signed POSTs to the Request URL) and Socket Mode (envelopes over the app's WebSocket).
import { createHmac } from 'node:crypto';
import { httpFetch } from '../http/index.js';
import { StandinError } from './calls.js';

/** What to send: an interactivity payload, slash-command fields, or an Events API JSON envelope. */
export type Outgoing =
  { payload: Record<string, unknown> } | { form: Record<string, string> } | { json: unknown };

export interface SendOptions {
  /** Sign with this secret instead of the real one (forged request). HTTP only. */
  secret?: string;
  /** X-Slack-Request-Timestamp in Unix seconds (stale or future requests). HTTP only. */
  timestampSec?: number;
  /** Change the body after signing it (the signature no longer matches). HTTP only. */
  tamper?: boolean;
  /** A redelivery of an Events API event: X-Slack-Retry-Num/-Reason (HTTP), retry_attempt/_reason (socket). */
  retry?: { num: number; reason: string };
}

export interface Delivery {
  /** HTTP status; a Socket Mode ack counts as 200. */
  status: number;
  /** The response body, or the ack's payload as JSON ('' when empty). */
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
}

export interface Transport {
  deliver(out: Outgoing, opts?: SendOptions): Promise<Delivery>;
}

export function parseJson(text: string): { json?: unknown } {
  if (text === '') return {};
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return {};
  }
}

/**
 * Signed POSTs to the bot's Request URL, exactly as Slack sends them. They go out on the process's own fetch on
 * node:http (src/http), not Node's fetch: the driver is Slack's side of a benchmark on the bot's machine, and
 * Node's fetch took several times the CPU per request, which a burst of requests then counted in the bot's acks
 * (bench/ack-floor.ts measures what is left of it).
 */
export class HttpTransport implements Transport {
  constructor(private readonly opts: { eventsUrl: string; signingSecret: string; clock: () => number }) {}

  async deliver(out: Outgoing, opts: SendOptions = {}): Promise<Delivery> {
    const isJson = 'json' in out;
    let body = isJson
      ? JSON.stringify(out.json)
      : new URLSearchParams(
          'payload' in out ? { payload: JSON.stringify(out.payload) } : out.form,
        ).toString();
    const ts = opts.timestampSec ?? Math.floor(this.opts.clock() / 1000);
    const hmac = createHmac('sha256', opts.secret ?? this.opts.signingSecret).update(`v0:${ts}:${body}`);
    const signature = `v0=${hmac.digest('hex')}`;
    if (opts.tamper) body += isJson ? ' ' : '&tampered=1';
    const retry: Record<string, string> = opts.retry
      ? { 'x-slack-retry-num': String(opts.retry.num), 'x-slack-retry-reason': opts.retry.reason }
      : {};
    const res = await httpFetch(this.opts.eventsUrl, {
      method: 'POST',
      // Bolt compares the content type with ===: no charset suffix.
      headers: {
        'content-type': isJson ? 'application/json' : 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(ts),
        'x-slack-signature': signature,
        ...retry,
      },
      body,
    });
    const text = await res.text();
    return { status: res.status, body: text, ...parseJson(text) };
  }
}

/** Refuses options that only mean something for signed HTTP requests. */
export function refuseHttpOnly(opts: SendOptions): void {
  if (opts.secret !== undefined || opts.timestampSec !== undefined || opts.tamper) {
    throw new StandinError('http_only_option', 'signatures and timestamps exist only on HTTP requests');
  }
}
