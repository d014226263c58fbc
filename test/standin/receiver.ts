// A tiny bot-side receiver for driver tests: verifies requests exactly as Bolt's HTTPReceiver does
// (v0 HMAC-SHA256 over the raw body, timestamps older than 5 minutes are stale, exact content type).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SIGNING_SECRET = 'standin-signing-secret';

export interface Received {
  contentType: string | undefined;
  raw: string;
  /** `payload` JSON of interactivity requests, the fields of slash commands, or the JSON body. */
  parsed: Record<string, unknown>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** What to answer to the next verified requests (default: empty 200). */
  reply: (r: Received) => { status?: number; body?: unknown };
  close(): Promise<void>;
}

function verified(req: IncomingMessage, raw: string): boolean {
  const ts = Number(req.headers['x-slack-request-timestamp']);
  const signature = String(req.headers['x-slack-signature'] ?? '');
  if (!Number.isInteger(ts) || ts < Math.floor(Date.now() / 1000) - 300) return false;
  const expected = `v0=${createHmac('sha256', SIGNING_SECRET).update(`v0:${ts}:${raw}`).digest('hex')}`;
  return (
    signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
  );
}

function parse(contentType: string | undefined, raw: string): Record<string, unknown> {
  if (contentType === 'application/json') return JSON.parse(raw) as Record<string, unknown>;
  const fields = Object.fromEntries(new URLSearchParams(raw));
  return typeof fields.payload === 'string'
    ? (JSON.parse(fields.payload) as Record<string, unknown>)
    : fields;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], reply: () => ({}), close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const contentType = req.headers['content-type'];
      if (!verified(req, raw)) return void res.writeHead(401).end();
      if (contentType !== 'application/x-www-form-urlencoded' && contentType !== 'application/json') {
        return void res.writeHead(400).end();
      }
      const received = { contentType, raw, parsed: parse(contentType, raw) };
      receiver.received.push(received);
      const { status = 200, body } = receiver.reply(received);
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}
