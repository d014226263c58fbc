// The sandbox's Automations side: the API settings it runs with (a token per start unless
// ELICIT_RELAY_API_TOKEN is set, its own webhook secret and receiver host), the ready-to-copy commands the
// panel shows for one person, and the receiver that records (and verifies) the webhooks the bot sends it.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { DEFAULT_API_CLIENT, type ApiConfig } from '../config/index.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, DELIVERY_HEADER, signature } from '../webhooks/index.js';

/** The receiver's path on the sandbox's own server. */
export const RECEIVER_PATH = '/sandbox/webhooks';

/** The receiver keeps the newest deliveries only (the panel lists them, newest first). */
const KEPT_WEBHOOKS = 50; /** A delivery whose timestamp is further than this from the receiver's clock is a replay, in seconds. */
export const TIMESTAMP_TOLERANCE_SEC = 300;

/** A small approval: Respond opens a one-field form (sending it accepts), Decline declines. */
export const APPROVAL_SCHEMA = {
  type: 'object',
  properties: { comment: { type: 'string', title: 'Comment for the release log', maxLength: 200 } },
};
const APPROVAL_MESSAGE = 'Deploy web 1.4.2 to production?';

export interface SandboxApi {
  /** The bot's config section: the configured clients plus `default` with `token`, and the receiver allowed. */
  config: ApiConfig;
  token: string;
  /** True when the token came from ELICIT_RELAY_API_TOKEN (then it is not printed). */
  tokenFromEnv: boolean;
  secret: string;
}

/** The API settings of one sandbox start; `receiverHost` is `127.0.0.1:<page port>`. */
export function sandboxApi(configured: ApiConfig | undefined, receiverHost: string): SandboxApi {
  const clients = configured?.clients ?? [];
  const given = clients.find((c) => c.name === DEFAULT_API_CLIENT)?.token;
  const token = given ?? randomBytes(18).toString('base64url');
  const secret = configured?.webhookSecret ?? randomBytes(24).toString('hex');
  const config: ApiConfig = {
    ...configured,
    clients: given === undefined ? [{ name: DEFAULT_API_CLIENT, token }, ...clients] : clients,
    webhookHosts: [...(configured?.webhookHosts ?? []), receiverHost],
    webhookSecret: secret,
  };
  return { config, token, tokenFromEnv: given !== undefined, secret };
}

/** POSIX shell single quoting: safe for any text. */
const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

export interface Automations {
  /** `curl` creating the approval question for the person, with the receiver as callbackUrl. */
  curl: string;
  /** `elicit-relay ask` asking the person the same, waiting for the answer. */
  ask: string;
  /** The same request as the curl command, for the panel's button (sent by the page itself). */
  request: { path: string; token: string; body: Record<string, unknown> };
}

/** The panel's commands for `userId`; `baseUrl` is the page's origin (it passes /api/v1 on to the bot). */
export function automationsFor(
  userId: string,
  at: { baseUrl: string; receiverUrl: string; token: string },
): Automations {
  const body = {
    message: APPROVAL_MESSAGE,
    requestedSchema: APPROVAL_SCHEMA,
    to: { user: userId },
    callbackUrl: at.receiverUrl,
  };
  const curl = [
    `curl -sS -X POST ${at.baseUrl}/api/v1/questions`,
    `-H ${quote(`Authorization: Bearer ${at.token}`)}`,
    `-H 'Content-Type: application/json'`,
    `-d ${quote(JSON.stringify(body))}`,
  ].join(' \\\n  ');
  const ask = [
    `npx elicit-relay ask --url ${at.baseUrl} --token ${quote(at.token)}`,
    `--to ${userId} --message ${quote(APPROVAL_MESSAGE)}`,
    `--schema ${quote(JSON.stringify(APPROVAL_SCHEMA))}`,
  ].join(' \\\n  ');
  return { curl, ask, request: { path: '/api/v1/questions', token: at.token, body } };
}

/** One delivery as the panel lists it. */
export interface ReceivedWebhook {
  deliveryId: string;
  type: string;
  id: string;
  status: string;
  /**
   * The signature header is v1=HMAC-SHA256("v1:<timestamp>:<body>") with the deployment's secret, and the
   * timestamp within TIMESTAMP_TOLERANCE_SEC of now (an older one is a replay).
   */
  verified: boolean;
  /** When it arrived, RFC 3339. */
  receivedAt: string;
}

/** The sandbox's webhook receiver: every POST is kept (verified or not) so the panel shows forgeries too. */
export class WebhookReceiver {
  private readonly received: ReceivedWebhook[] = [];

  constructor(
    private readonly secret: string,
    private readonly onChange: () => void,
  ) {}

  list(): readonly ReceivedWebhook[] {
    return this.received;
  }

  /** Records one POST; the headers as Node gives them (lower-case names). */
  receive(headers: Record<string, string | string[] | undefined>, body: string, nowMs: number): void {
    const header = (name: string): string => {
      const value = headers[name.toLowerCase()];
      return (Array.isArray(value) ? value[0] : value) ?? '';
    };
    const parsed = parseObject(body);
    this.received.unshift({
      deliveryId: header(DELIVERY_HEADER),
      type: text(parsed.type),
      id: text(parsed.id),
      status: text(parsed.status),
      verified: this.verifies(header(TIMESTAMP_HEADER), header(SIGNATURE_HEADER), body, nowMs),
      receivedAt: new Date(nowMs).toISOString(),
    });
    this.received.length = Math.min(this.received.length, KEPT_WEBHOOKS);
    this.onChange();
  }

  private verifies(timestamp: string, given: string, body: string, nowMs: number): boolean {
    if (!/^\d+$/.test(timestamp)) return false;
    if (Math.abs(nowMs / 1000 - Number(timestamp)) > TIMESTAMP_TOLERANCE_SEC) return false;
    const expected = Buffer.from(signature(this.secret, Number(timestamp), body));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}

/** A field the panel lists as text; anything but a string shows empty. */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function parseObject(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return Object.fromEntries(Object.entries(parsed));
    }
  } catch {
    // A body that is not JSON is still listed (with empty fields): the panel shows what arrived.
  }
  return {};
}
