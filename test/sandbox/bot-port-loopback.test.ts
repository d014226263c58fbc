// The sandbox's bot listens on a free internal port that only the page's server, on the same machine, talks
// to. Bound to every interface it served /metrics and /readyz to anyone on a shared network; it binds loopback
// only, so a connection to one of the machine's other addresses is refused (the page's own binding is apart).
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { deleteUnder } from '../support/redis-cleanup.js';

/**
 * An IPv4 address of this machine that is not loopback (a bot bound to 0.0.0.0 answers on it). A machine with
 * none cannot show the refusal: the test fails saying so rather than passing on nothing.
 */
function nonLoopbackAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((a) => a !== undefined && !a.internal && a.family === 'IPv4');
  if (!found) throw new Error('this machine has no non-loopback IPv4 address to try the bot port on');
  return found.address;
}

/** Connects to `host:port`: 'connected', or the error code the connection failed with (ECONNREFUSED). */
async function tryConnect(host: string, port: number): Promise<string> {
  const socket = connect({ host, port });
  const outcome = await new Promise<string>((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
  socket.destroy();
  return outcome;
}

describe("the sandbox's internal bot port", () => {
  const prefix = uniquePrefix();
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      redisUrl: redisUrl(),
      redisPrefix: prefix,
      logger: createLogger('silent'),
    });
  });
  afterAll(async () => {
    await sandbox?.stop();
    await deleteUnder(prefix);
  });

  it('answers on loopback and refuses a connection on one of the machine’s other addresses', async () => {
    const address = nonLoopbackAddress();
    const healthz = await fetch(`http://127.0.0.1:${sandbox.botPort}/healthz`);
    expect(healthz.status).toBe(200);
    expect(await tryConnect(address, sandbox.botPort)).toBe('ECONNREFUSED');
  });
});
