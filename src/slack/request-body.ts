// Slack's requests are read whole and their shape checked before Bolt sees them: Bolt's HTTPReceiver reads
// fields of whatever the body parses to, so a signed `null`, `true` or `[1,2]` threw inside it and took the
// process down (issue 15 item 1). Bolt skips its own read when `rawBody` is already a Buffer
// (HTTPModuleFunctions.bufferIncomingMessage), so the bytes read here are the ones it verifies and parses.
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

function parsesToTypedObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && 'type' in value;
  } catch {
    return false;
  }
}

/**
 * True for the shapes Slack sends: a JSON object with `type` (Events API), a form whose `payload` is such an
 * object (interactivity), a form with `command` (slash commands) or `ssl_check=1` (Slack's certificate probe).
 * Bolt compares the content type with ===, so the same comparison decides form vs JSON here.
 */
export function isSlackShaped(contentType: string | undefined, body: Buffer): boolean {
  const text = body.toString();
  if (contentType !== 'application/x-www-form-urlencoded') return parsesToTypedObject(text);
  const form = parseQuery(text);
  if (typeof form.payload === 'string') return parsesToTypedObject(form.payload);
  return typeof form.command === 'string' || form.ssl_check === '1';
}
