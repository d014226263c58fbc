// The webhook error family: why a callback URL is refused (at creation or at delivery) or an attempt failed.
import { RelayError } from '../relay/errors.js';

export type WebhookErrorCode =
  /** Not an absolute http(s) URL, or it carries a user name or password. */
  | 'invalid_url'
  /** ELICIT_RELAY_WEBHOOK_HOSTS is unset or empty: no callback host is allowed. */
  | 'webhooks_disabled'
  /** The URL's host (or host:port) is not in ELICIT_RELAY_WEBHOOK_HOSTS. */
  | 'host_not_allowed'
  /**
   * The host resolved to a loopback, link-local, cloud metadata, unspecified or multicast address (or its
   * NAT64 form) the allow-list does not name.
   */
  | 'address_not_allowed'
  /** The host name did not resolve. */
  | 'dns_failed'
  /** The receiver answered something other than 2xx (a 3xx included: redirects are not followed). */
  | 'bad_status'
  /** No answer within the attempt's time limit (10 s by default). */
  | 'timeout'
  /** The connection failed or broke (refused, reset, TLS). */
  | 'network';

/** RelayError's constructor, typed by its `Code`, takes only a WebhookErrorCode and keeps `cause` natively. */
export class WebhookError extends RelayError<WebhookErrorCode> {
  override name = 'WebhookError';
  /** A 429's or 503's Retry-After as the receiver sent it (seconds, or an HTTP date): the least wait it asked. */
  readonly retryAfter: string | undefined;

  constructor(
    code: WebhookErrorCode,
    message: string,
    options?: { cause?: unknown; retryAfter?: string | undefined },
  ) {
    super(code, message, options);
    this.retryAfter = options?.retryAfter;
  }
}

/** A creation-time refusal: the code and the reason the API puts in its 400. */
export interface WebhookRefusal {
  code: Extract<WebhookErrorCode, 'invalid_url' | 'webhooks_disabled' | 'host_not_allowed'>;
  reason: string;
}
