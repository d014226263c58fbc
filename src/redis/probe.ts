// One plain connection to one node, for diagnose.ts: no retries, and every wait on the node bounded, so that a
// node which accepts connections and never answers (a hung or paused Redis, a proxy whose backend is down)
// is reported as such instead of holding start-up for ever.
import { Redis, type RedisOptions } from 'ioredis';
import type { RedisNode, RedisSetting } from '../config/index.js';
import { answerWithin } from '../settle.js';
import { urlTarget } from './topology.js';

/**
 * How long a probe waits for a node, in ms: once for the connection (TCP, TLS, AUTH, SELECT and ioredis's INFO
 * ready check) and once for each command after it. ioredis's own connectTimeout ends at the TCP (or TLS)
 * connect, and its commands have no clock, so without this a silent node held the probe for ever. A Redis
 * answers these in well under a millisecond on its network; 2 s leaves room for a cross-region link or a busy
 * server, and keeps a diagnosis of a few nodes, after the bot's own 3 s connect wait, well inside Kubernetes'
 * 30 s between SIGTERM and SIGKILL.
 */
export const PROBE_TIMEOUT_MS = 2_000;

/** Why a probe got nothing it could explain. */
export type ProbeErrorCode = 'no_answer';

/** A node that took the connection but gave no answer within PROBE_TIMEOUT_MS. */
export class ProbeError extends Error {
  override name = 'ProbeError';
  readonly code: ProbeErrorCode = 'no_answer';
  constructor(
    /** host:port of the node. */
    readonly node: string,
    what: string,
  ) {
    super(`${node} accepts connections but gave no answer to ${what} within ${PROBE_TIMEOUT_MS} ms`);
  }
}

/** A connected probe (its node named host:port), or the first error the connection met. */
export type Probe = { client: Redis; node: string } | { error: unknown };

/**
 * One plain connection to `node` (host and port, or a redis:// URL), no retries, reporting the first error it
 * emitted: ioredis rejects connect() with "Connection is closed" and emits the real cause (ECONNREFUSED,
 * WRONGPASS, a TLS code) as 'error'. A ProbeError when the node gave no answer in time.
 */
export async function open(
  access: Pick<RedisSetting, 'username' | 'password' | 'tls'>,
  node: RedisNode | string,
): Promise<Probe> {
  const options: RedisOptions = {
    lazyConnect: true,
    connectTimeout: PROBE_TIMEOUT_MS,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    ...(typeof node === 'string' ? {} : { host: node.host, port: node.port }),
    ...(access.username ? { username: access.username } : {}),
    ...(access.password ? { password: access.password } : {}),
    ...(access.tls ? { tls: { ...access.tls } } : {}),
  };
  // A URL's own host and TLS win over the options, and its credentials as the bot's connections take them.
  const client = typeof node === 'string' ? fromUrl(node, access, options) : new Redis(options);
  const name = typeof node === 'string' ? new URL(node).host : `${node.host}:${node.port}`;
  let first: unknown;
  client.on('error', (error: unknown) => {
    first ??= error;
  });
  try {
    if (
      await answerWithin(
        client.connect().then(() => true),
        PROBE_TIMEOUT_MS,
        false,
      )
    ) {
      return { client, node: name };
    }
    client.disconnect();
    return { error: first ?? new ProbeError(name, 'the connection handshake') };
  } catch (error) {
    // A refused connection has ended already: disconnect() then arms ioredis's 2 s destroy timer on a stream
    // that never emits 'close' again, one more live handle after a failed start.
    if (client.status !== 'end') client.disconnect();
    return { error: first ?? error };
  }
}

/** A probe of a URL (REDIS_URL's one Redis): its user and password resolved as topology.ts urlTarget does. */
function fromUrl(
  node: string,
  access: Pick<RedisSetting, 'username' | 'password'>,
  options: RedisOptions,
): Redis {
  const { url, ...credentials } = urlTarget(node, access);
  return new Redis(url, { ...options, ...credentials });
}

/** The reply to `command` sent on `probe`, the error Redis answered, or a ProbeError once PROBE_TIMEOUT_MS passed. */
export async function ask(
  probe: { node: string },
  what: string,
  command: Promise<unknown>,
): Promise<unknown> {
  const settled = command.catch((error: unknown) => error);
  return answerWithin(settled, PROBE_TIMEOUT_MS, new ProbeError(probe.node, what));
}
