// The 2026 harness the MRTR system tests share: the MRTR fixture (test/fixtures/mrtr-server.ts, its own process,
// stateless Streamable HTTP) and a bot whose server `modern` is that fixture; close() stops both.
import { beforeEach } from 'vitest';
import type { Logger } from '../../src/logger.js';
import type { RecordedCall } from '../../src/standin/index.js';
import { captureLogs, printLogsOnFailure } from '../slack/log-capture.js';
import type { CliRun } from './child.js';
import { startMrtrFixture, type HttpPeer } from '../mcp/peers.js';
import { startHarness, type Harness, type HarnessOptions } from './harness.js';

export interface MrtrHarness extends Harness {
  peer: HttpPeer;
}

export interface MrtrHarnessOptions extends Omit<HarnessOptions, 'servers'> {
  /** The fixture's environment (e.g. REQUEST_STATE_TTL_S). */
  fixtureEnv?: Record<string, string>;
  /** More `mcpServers` entries beside `modern`, given the fixture's URL (e.g. one with other limits). */
  moreServers?: (url: string) => Record<string, unknown>;
}

export async function startMrtrHarness(options: MrtrHarnessOptions = {}): Promise<MrtrHarness> {
  const { fixtureEnv, moreServers, ...harness } = options;
  const peer = await startMrtrFixture(fixtureEnv);
  try {
    const servers = { modern: { url: peer.url }, ...moreServers?.(peer.url) };
    const h = await startHarness({ ...harness, servers });
    const close = async (): Promise<void> => {
      await h.close();
      await peer.stop();
    };
    return { ...h, peer, close };
  } catch (error) {
    await peer.stop();
    throw error;
  }
}

/** The next message posted in `userId`'s DM that `match`es (within 15 s). */
export function postedInDm(
  h: Harness,
  userId: string,
  match: (c: RecordedCall) => boolean,
): Promise<RecordedCall> {
  return h.standin.waitForCall(
    'chat.postMessage',
    (c) => c.ok && c.args.channel === h.standin.dmChannelOf(userId) && match(c),
    15_000,
  );
}

/** The card asking `message` in `userId`'s DM, once posted (within 30 s): its channel and ts. */
export async function cardInDm(
  h: Harness,
  userId: string,
  message: string,
): Promise<{ channel: string; ts: string }> {
  const channel = h.standin.dmChannelOf(userId);
  const has = (blocks: unknown): boolean => JSON.stringify(blocks ?? '').includes(message);
  await h.standin.waitForCall(
    'chat.postMessage',
    (c) => c.ok && c.args.channel === channel && has(c.args.blocks),
    30_000,
  );
  const posted = h.standin.messagesIn(channel).find((m) => has(m.blocks));
  return { channel, ts: posted?.ts ?? '' };
}

/**
 * For a describe whose replicas run in-process and in child processes: the in-process replicas' logger (debug),
 * and `child(run)` naming the test's child replica; a failed test prints the lines both logged meanwhile, so a
 * failure in CI's loaded run can be read afterwards.
 */
export function logsOnFailure(): { logger: Logger; child: (run: CliRun) => void } {
  const logs = captureLogs('debug');
  printLogsOnFailure(logs);
  let child: CliRun | undefined;
  beforeEach(({ onTestFailed }) => {
    child = undefined;
    onTestFailed(() => console.error(`child replica's log:\n${child?.stdout() ?? '(none)'}`));
  });
  return { logger: logs.logger, child: (run) => (child = run) };
}
