// The body of POST /mcp refused as the SDK's own Streamable HTTP server refuses one (a JSON-RPC error object,
// id null): over 1 MB, 413 with -32000 and the SDK's words, however large, while the host still sends, on a
// connection that then closes; bytes that are not UTF-8 or not JSON, 400 with -32700 (parse error), nothing
// asked: a message is never shown in Slack with U+FFFD in place of what the host sent.
import { afterEach, describe, expect, it } from 'vitest';
import type { HumanAnswer } from '../../src/mcp/endpoint.js';
import { endpointPorts, endpointServers } from '../support/mcp-endpoint.js';
import { streamedPost } from '../support/streamed-post.js';

const TOKEN = 'tok-bodies';
const MB = 1024 * 1024;
const HEADERS = {
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

interface Reply {
  status: number;
  connection: string | undefined;
  body: unknown;
}

const endpoint = endpointServers();
afterEach(() => endpoint.close());

/** An endpoint whose ask_human records the message asked and answers accept at once. */
async function serve(): Promise<{ url: URL; asked: unknown[] }> {
  const asked: unknown[] = [];
  const askHuman = (_client: string, args: Record<string, unknown>): Promise<HumanAnswer> => {
    asked.push(args.message);
    return Promise.resolve({ action: 'accept' });
  };
  const url = await endpoint.serve(endpointPorts(TOKEN, { askHuman }));
  return { url, asked };
}

/** POSTs `chunks` one after another (chunked unless `content-length` is given); resolves with the answer. */
async function post(url: URL, chunks: Buffer[], headers: Record<string, string> = {}): Promise<Reply> {
  const { status, connection, contentType, text } = await streamedPost(url, chunks, {
    ...HEADERS,
    ...headers,
  });
  // A call's answer comes as an SSE stream; only a refusal is a JSON body.
  const body: unknown = contentType?.startsWith('application/json') === true ? JSON.parse(text) : text;
  return { status, connection, body };
}

/** A tools/call of ask_human whose message is `message`'s bytes. */
const askHumanBytes = (message: Buffer): Buffer =>
  Buffer.concat([
    Buffer.from(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask_human","arguments":{"message":"',
    ),
    message,
    Buffer.from('","requestedSchema":{"type":"object","properties":{}},"to":{"user":"U1"}}}}'),
  ]);

/** The JSON-RPC error object the SDK's transport answers with: id null, `message` exactly or matched. */
function jsonRpcError(code: number, message: string | RegExp): object {
  const said: unknown = typeof message === 'string' ? message : expect.stringMatching(message);
  return { jsonrpc: '2.0', id: null, error: { code, message: said } };
}

const TOO_LARGE = jsonRpcError(-32000, `Payload Too Large: Request body must not exceed ${MB} bytes`);

describe('a POST /mcp body over 1 MB', () => {
  it('gets 413 with a JSON-RPC error, and a closed connection, when declared so, however large', async () => {
    const { url, asked } = await serve();
    // 40 MB, more than the endpoint ever drains: it answers before reading it, and the host stops sending.
    const chunks = Array.from({ length: 40 }, () => Buffer.alloc(MB, 'x'));
    const reply = await post(url, chunks, { 'content-length': String(40 * MB) });
    expect(reply).toEqual({ status: 413, connection: 'close', body: TOO_LARGE });
    expect(asked).toEqual([]);
  });

  it('gets 413 with a JSON-RPC error once a chunked body passes 1 MB', async () => {
    const { url, asked } = await serve();
    const chunks = [
      Buffer.from('{"jsonrpc":"2.0"'),
      ...Array.from({ length: 40 }, () => Buffer.alloc(MB, ' ')),
    ];
    const reply = await post(url, chunks);
    expect(reply).toMatchObject({ status: 413, body: TOO_LARGE });
    expect(asked).toEqual([]);
  });
});

describe('a POST /mcp body that is not JSON text', () => {
  it('is a parse error (-32700, 400) when its bytes are not UTF-8, and nobody is asked', async () => {
    const { url, asked } = await serve();
    const reply = await post(url, [askHumanBytes(Buffer.from('Déployer en prod ?', 'latin1'))]);
    expect(reply).toMatchObject({ status: 400, body: jsonRpcError(-32700, /^Parse error: .*UTF-8/) });
    expect(asked).toEqual([]);
  });

  it('is a parse error (-32700, 400) when it is not JSON', async () => {
    const { url, asked } = await serve();
    const reply = await post(url, [Buffer.from('{"jsonrpc":"2.0","id":1,')]);
    expect(reply).toMatchObject({ status: 400, body: jsonRpcError(-32700, 'Parse error: Invalid JSON') });
    expect(asked).toEqual([]);
  });

  it('is read past a UTF-8 byte order mark, as the SDK reads it, the message kept as sent', async () => {
    const { url, asked } = await serve();
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const reply = await post(url, [bom, askHumanBytes(Buffer.from('部署到生产环境？🚀'))]);
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('"structuredContent":{"action":"accept"}');
    expect(asked).toEqual(['部署到生产环境？🚀']);
  });
});
