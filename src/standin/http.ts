// node:http plumbing of the stand-in: read the body, decode it like Slack does, answer JSON.
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Obj, isObj } from './blockkit-check.js';

export interface Answer {
  status: number;
  body: Obj;
  /** Plain text sent instead of the JSON body (file upload URLs answer text). */
  text?: string;
  headers?: Record<string, string>;
}

export type Route = (path: string, args: Obj, req: IncomingMessage, raw: string) => Answer | Promise<Answer>;

/** Form fields WebClient sends as JSON strings. */
const JSON_FIELDS = new Set(['blocks', 'view', 'attachments', 'metadata']);

function decodeField(key: string, value: string): unknown {
  if (!JSON_FIELDS.has(key)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Parses a form-urlencoded or JSON body; undefined when JSON is malformed. */
export function parseArgs(raw: string, contentType: string | undefined, json: boolean): Obj | undefined {
  if (json || (contentType ?? '').startsWith('application/json')) {
    try {
      const parsed = raw ? (JSON.parse(raw) as unknown) : {};
      return isObj(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  const args: Obj = {};
  for (const [key, value] of new URLSearchParams(raw)) args[key] = decodeField(key, value);
  return args;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the server on 127.0.0.1:`port` (0 = random) and returns it with its origin. */
export async function listen(port: number, route: Route): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    void readBody(req)
      .then(async (raw) => {
        const path = new URL(req.url ?? '/', 'http://standin').pathname;
        // response_urls take JSON whatever the content type says, as Slack's do.
        const args = parseArgs(raw, req.headers['content-type'], path.startsWith('/response/'));
        const answer = args
          ? await route(path, args, req, raw)
          : { status: 200, body: { ok: false, error: 'invalid_json' } };
        const type = answer.text === undefined ? 'application/json' : 'text/plain';
        res.writeHead(answer.status, { 'content-type': `${type}; charset=utf-8`, ...answer.headers });
        res.end(answer.text ?? JSON.stringify(answer.body));
      })
      .catch((error: unknown) => {
        // A stand-in bug must show up as a failed call in the test, not as a hung request.
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ ok: false, error: 'internal_error', detail: String(error) }));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${bound}` };
}
