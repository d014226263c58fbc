// Talking to the Automations API of a harness's replicas as a client would, for the API's system tests.
import { Redis } from 'ioredis';
import { keys } from '../../src/redis/index.js';
import type { RecordedCall } from '../../src/standin/index.js';
import { redisUrl } from '../setup/context.js';
import type { Harness } from './harness.js';

export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface RequestOptions {
  body?: unknown;
  /** The bearer token; null sends none. Default: the caller's default token. */
  token?: string | null;
  /** Which replica answers (index into h.replicas); default the first. */
  on?: number;
  headers?: Record<string, string>;
}

export type Api = (method: string, path: string, opts?: RequestOptions) => Promise<Reply>;

/** Requests to `/api/v1<path>` on the harness's replicas, with `token` unless told otherwise. */
export function apiOf(h: Harness, token: string): Api {
  return async (method, path, opts = {}) => {
    const replica = h.replicas[opts.on ?? 0];
    const bearer = opts.token === undefined ? token : opts.token;
    const response = await fetch(`http://127.0.0.1:${replica?.port}/api/v1${path}`, {
      method,
      headers: {
        ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }),
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...opts.headers,
      },
      ...(opts.body === undefined
        ? {}
        : { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
  };
}

/** The first card posted whose blocks contain `text`: where it is, and its message ts. */
export async function cardWith(
  h: Harness,
  text: string,
): Promise<{ channel: string; ts: string; call: RecordedCall }> {
  const has = (blocks: unknown): boolean => JSON.stringify(blocks ?? '').includes(text);
  const call = await h.standin.waitForCall(
    'chat.postMessage',
    (c) => c.ok && has(c.args.blocks) && JSON.stringify(c.args.blocks).includes('elicit_respond'),
    // A first call starts its MCP server's process: on a loaded machine that alone can take seconds.
    30_000,
  );
  const channel = String(call.args.channel);
  const posted = h.standin.messagesIn(channel).find((m) => has(m.blocks));
  return { channel, ts: posted?.ts ?? '', call };
}

/** The error code of an API error reply. */
export const codeOf = (reply: Reply): unknown => (reply.body.error as { code?: unknown } | undefined)?.code;

/**
 * Resolves once the audit stream holds an event with every one of `fields` (XREAD BLOCK). Fields are compared
 * whole: a substring test once matched a user id such as U6 inside another event's random ids.
 */
export async function auditEventWith(h: Harness, fields: Record<string, string>): Promise<void> {
  const redis = new Redis(redisUrl());
  try {
    let last = '0';
    for (;;) {
      const reply = await redis.xread('BLOCK', 15_000, 'STREAMS', keys(h.prefix).auditEvents, last);
      if (reply === null) throw new Error(`no audit event with ${JSON.stringify(fields)}`);
      for (const [, entries] of reply) {
        for (const [id, entry] of entries) {
          last = id;
          const event = JSON.parse(entry[1] ?? '{}') as Record<string, unknown>;
          if (Object.entries(fields).every(([name, value]) => event[name] === value)) return;
        }
      }
    }
  } finally {
    redis.disconnect();
  }
}
