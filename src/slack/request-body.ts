// Slack's requests are read whole (http-server.ts) and parsed once, their shape checked before Bolt sees them
// (events-receiver.ts): Bolt reads fields of whatever the body parses to, so a signed `null`, `true` or `[1,2]`
// threw inside it and took the process down (issue 15 item 1).
import type { BufferedIncomingMessage } from '@slack/bolt';
import type { IncomingMessage } from 'node:http';
import { parse as parseQuery } from 'node:querystring';

/** Largest body read, in bytes: Bolt's own default limit (4 MB). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export type RequestBodyErrorCode = 'too_large' | 'not_slack_shaped';

export class RequestBodyError extends Error {
  override readonly name = 'RequestBodyError';
  constructor(
    readonly code: RequestBodyErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Reads the whole body into `req.rawBody`; rejects with `too_large` past MAX_BODY_BYTES. */
export async function bufferBody(req: IncomingMessage): Promise<BufferedIncomingMessage> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += bytes.length;
    if (size > MAX_BODY_BYTES) throw new RequestBodyError('too_large', `body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(bytes);
  }
  return Object.assign(req, { rawBody: Buffer.concat(chunks) });
}

/** The body Slack sent, parsed once: what Bolt is handed, Slack's unsigned certificate probe, or neither. */
export type SlackBody =
  { kind: 'slack'; body: Record<string, unknown> } | { kind: 'ssl_check' } | { kind: 'malformed' };

const MALFORMED: SlackBody = { kind: 'malformed' };

/** A JSON object with `type`, as Slack sends (Events API bodies, interactivity payloads). */
function typedObject(text: string): SlackBody {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !('type' in value))
      return MALFORMED;
    return { kind: 'slack', body: value };
  } catch {
    return MALFORMED;
  }
}

/**
 * The shapes Slack sends: a JSON object with `type` (Events API), a form whose `payload` is such an object
 * (interactivity: the payload is the body, as Bolt hands it over), a form with `command` (slash commands: the
 * form is the body), or a form with `ssl_check=1` (Slack's certificate probe, which Bolt answers unsigned).
 * Bolt compares the content type with ===, so the same comparison decides form vs JSON here.
 */
export function parseSlackBody(contentType: string | undefined, raw: Buffer): SlackBody {
  const text = raw.toString();
  if (contentType !== 'application/x-www-form-urlencoded') return typedObject(text);
  const form = parseQuery(text);
  if (form.ssl_check === '1') return { kind: 'ssl_check' };
  if (typeof form.payload === 'string') return typedObject(form.payload);
  return typeof form.command === 'string' ? { kind: 'slack', body: form } : MALFORMED;
}
