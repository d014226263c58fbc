// How POST bodies are read (src/api/http.ts), through the router as a client sends them: bytes that are not
// UTF-8 are refused (the card would otherwise show U+FFFD in place of what was sent), a UTF-8 byte order mark as
// Windows tools write it is read past (RFC 8259 §8.1 lets a parser ignore it), and a body over 1 MB gets its 413
// however large it is, while the client still sends it, on a connection that then closes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouter } from '../../src/api/router.js';
import { redisUrl } from '../setup/context.js';
import { question } from '../support/question.js';
import { streamedPost } from '../support/streamed-post.js';
import { routerDeps, TOKEN } from './support.js';

const MB = 1024 * 1024;
const JSON_TYPE = { 'content-type': 'application/json' };
const body = (message: string): string =>
  JSON.stringify({ message, requestedSchema: { type: 'object', properties: {} }, to: { user: 'U1' } });

interface Answer {
  status: number;
  connection: string | undefined;
  body: { error?: { code: string; message: string } };
}

describe('the body of POST /questions', () => {
  let redis: Redis;
  let server: Server;
  let port: number;
  /** The messages the fake relay was asked, in order: a refused body asks nothing. */
  const asked: string[] = [];
  beforeAll(async () => {
    redis = new Redis(redisUrl());
    const open = (request: { message: string }) => {
      asked.push(request.message);
      return Promise.resolve(question({ id: `q${asked.length}`, deadline: Date.now() + 60_000 }));
    };
    server = createServer(apiRouter(routerDeps(redis, { questions: { open } })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ({ port } = server.address() as AddressInfo);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    redis.disconnect();
  });

  /** POSTs `chunks` one after another (chunked unless `content-length` is declared); resolves with the answer. */
  const post = async (chunks: Buffer[], headers: Record<string, string> = {}): Promise<Answer> => {
    const url = new URL(`http://127.0.0.1:${port}/api/v1/questions`);
    const all = { authorization: `Bearer ${TOKEN}`, ...JSON_TYPE, ...headers };
    const { status, connection, text } = await streamedPost(url, chunks, all);
    return { status, connection, body: JSON.parse(text) as Answer['body'] };
  };

  it('refuses bytes that are not UTF-8 with 400 invalid_json, asking nothing', async () => {
    const before = asked.length;
    const latin1 = Buffer.from(body('Déployer en prod ?'), 'latin1');
    const reply = await post([latin1]);
    expect([reply.status, reply.body.error?.code]).toEqual([400, 'invalid_json']);
    expect(reply.body.error?.message).toMatch(/UTF-8/);
    expect(asked.length).toBe(before);
  });

  it('reads past a UTF-8 byte order mark, keeping the message as sent', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const reply = await post([bom, Buffer.from(body('部署到生产环境？🚀'))]);
    expect(reply.status).toBe(201);
    expect(asked.at(-1)).toBe('部署到生产环境？🚀');
  });

  it('answers 413 and closes the connection for a body declared over 1 MB, however large, as it is sent', async () => {
    const before = asked.length;
    // 40 MB, more than the server ever drains: it answers before reading it, and the client stops sending.
    const chunk = Buffer.alloc(MB, 'x');
    const chunks = Array.from({ length: 40 }, () => chunk);
    const reply = await post(chunks, { 'content-length': String(40 * MB) });
    expect([reply.status, reply.body.error?.code]).toEqual([413, 'payload_too_large']);
    expect(reply.connection).toBe('close');
    expect(asked.length).toBe(before);
  });

  it('answers 413 for a chunked body once it passes 1 MB, however large, as it is sent', async () => {
    const before = asked.length;
    const chunk = Buffer.alloc(MB, 'x');
    const chunks = [Buffer.from('{"message":"'), ...Array.from({ length: 40 }, () => chunk)];
    const reply = await post(chunks);
    expect([reply.status, reply.body.error?.code]).toEqual([413, 'payload_too_large']);
    expect(asked.length).toBe(before);
  });
});
