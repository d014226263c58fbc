// Slack's HTTP requests in HTTP mode, handed to Bolt as its HTTPReceiver would, with each body read, verified and
// parsed once. Bolt's HTTPReceiver parsed every form body three times (its ssl_check look, its parse, and our
// shape check before it: request-body.ts) and its JSON twice, and compared signatures with tsscmp (two more
// HMACs and a randomBytes call per request): at 200 view submissions per second that was a measurable share of
// the bot's CPU (issue #19 goal 6). Our HTTP server (http-server.ts) has checked the timestamp both ways and
// read the body (rawBody, at most MAX_BODY_BYTES) before the request reaches `requestListener` here.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  HTTPModuleFunctions,
  HTTPResponseAck,
  type App,
  type BufferedIncomingMessage,
  type Logger as BoltLogger,
  type Receiver,
  type ReceiverEvent,
} from '@slack/bolt';
import { parseSlackBody } from './request-body.js';

/** A v0 signature: `v0=` and the HMAC-SHA256 of `v0:<timestamp>:<body>` in hex (64 digits). */
const SIGNATURE = /^v0=([0-9a-f]{64})$/;

/**
 * True when `x-slack-signature` is the signing secret's HMAC of this request's timestamp and raw bytes (Slack
 * signs the bytes it sent). One HMAC and a constant-time compare of the two digests.
 */
export function isSignedBy(signingSecret: string, req: BufferedIncomingMessage): boolean {
  const signature = req.headers['x-slack-signature'];
  const timestamp = req.headers['x-slack-request-timestamp'];
  const hex = typeof signature === 'string' ? SIGNATURE.exec(signature)?.[1] : undefined;
  if (hex === undefined || typeof timestamp !== 'string') return false;
  const expected = createHmac('sha256', signingSecret)
    .update(`v0:${timestamp}:`)
    .update(req.rawBody)
    .digest();
  return timingSafeEqual(Buffer.from(hex, 'hex'), expected);
}

export interface EventsReceiverOptions {
  signingSecret: string;
  logger: BoltLogger;
}

export class SlackEventsReceiver implements Receiver {
  private app: App | undefined;

  constructor(private readonly options: EventsReceiverOptions) {}

  init(app: App): void {
    this.app = app;
  }

  /** Nothing to start or stop: our HTTP server listens and calls requestListener. */
  start(): Promise<void> {
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  /** For POST /slack/events, once http-server.ts has read the body into `rawBody`. */
  readonly requestListener = (req: IncomingMessage, res: ServerResponse): void => {
    this.handle(req, res).catch((error: unknown) => {
      this.options.logger.error('Slack request not handled', error);
      if (!res.headersSent) res.writeHead(500).end();
    });
  };

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!HTTPModuleFunctions.isBufferedIncomingMessage(req)) return void res.writeHead(500).end();
    const parsed = parseSlackBody(req.headers['content-type'], req.rawBody);
    // Slack's certificate probe is not signed; Bolt answers it without reading anything else (as here).
    if (parsed.kind === 'ssl_check') return void res.writeHead(200).end();
    if (!isSignedBy(this.options.signingSecret, req)) {
      this.options.logger.warn('Failed to verify authenticity: signature mismatch');
      return void res.writeHead(401).end();
    }
    // A signed body that is not the object Slack sends (issue 15 item 1: Bolt read fields of whatever it was).
    if (parsed.kind === 'malformed') return void res.writeHead(400).end();
    const { body } = parsed;
    if (body.type === 'url_verification') return HTTPModuleFunctions.buildUrlVerificationResponse(res, body);
    if (body.type === 'app_rate_limited') return this.rateLimited(res, body);
    await this.dispatch(req, res, body);
  }

  /**
   * Slack's notice that it holds back a workspace's events (over 30,000 an hour: an App Home storm), a body with
   * no inner event, which Bolt finds no listener type in and never acks: it answered 404 after 3 s, a failed
   * delivery of the kind that gets an app's event subscriptions disabled. Answered 200 here, with a warning.
   */
  private rateLimited(res: ServerResponse, body: Record<string, unknown>): void {
    const team = typeof body.team_id === 'string' ? body.team_id : 'unknown';
    // `minute_rate_limited`: epoch seconds, rounded to the minute the limit began.
    const minute = new Date(
      typeof body.minute_rate_limited === 'number' ? body.minute_rate_limited * 1000 : NaN,
    );
    const since = Number.isNaN(minute.getTime()) ? '' : ` since ${minute.toISOString()}`;
    this.options.logger.warn(
      `Slack is rate limiting this app's events from workspace ${team}${since} (app_rate_limited: over 30,000 events in an hour); events past the limit are not delivered`,
    );
    res.writeHead(200).end();
  }

  /** Bolt's HTTPReceiver's hand-over (processBeforeResponse false, its 3001 ms unhandled-request timer). */
  private async dispatch(
    req: BufferedIncomingMessage,
    res: ServerResponse,
    body: ReceiverEvent['body'],
  ): Promise<void> {
    const { logger } = this.options;
    const ack = new HTTPResponseAck({
      logger,
      processBeforeResponse: false,
      httpRequest: req,
      httpRequestBody: body,
      httpResponse: res,
    });
    const event: ReceiverEvent = {
      body,
      ack: ack.bind(),
      retryNum: HTTPModuleFunctions.extractRetryNumFromHTTPRequest(req),
      retryReason: HTTPModuleFunctions.extractRetryReasonFromHTTPRequest(req),
      customProperties: {},
    };
    try {
      await this.app?.processEvent(event);
    } catch (error) {
      const acknowledged = await HTTPModuleFunctions.defaultProcessEventErrorHandler({
        error: error instanceof Error ? error : new Error(String(error), { cause: error }),
        logger,
        request: req,
        response: res,
        storedResponse: undefined,
      });
      if (acknowledged) ack.ack();
    }
  }
}
