// The tracker in the sandbox: the local authorization server in this process and examples/tracker (a
// Streamable HTTP server that needs sign-in) as its own process, both on free 127.0.0.1 ports. Its entry in the
// bot's config says `auth: {mode: oauth}`, so the first of a person's calls asks them to connect, and the
// consent page they see is the local server's: nothing leaves the machine.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { DEFAULT_ELICITATION_TIMEOUT_MS, type ServerConfig } from '../../config/index.js';
import { SandboxError } from '../actions.js';
import { exampleCommand } from '../people.js';
import { startOAuthServer } from './authorization-server.js';

/** The tracker's name in /mcp run and in the bot's config. */
export const TRACKER = 'tracker';

/** How long the tracker process has to print its address, in ms. */
const TRACKER_START_MS = 30_000;

export interface SandboxSignIn {
  /** The tracker's entry in the bot's config. */
  server: ServerConfig;
  /** The local authorization server's issuer, e.g. http://127.0.0.1:41234/ */
  issuer: URL;
  stop(): Promise<void>;
}

/** Resolves with the URL the tracker prints (`listening <url>`); rejects when it exits or stays silent. */
function listeningUrl(child: ChildProcessByStdio<null, Readable, null>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const failed = (why: string): void => {
      clearTimeout(timer);
      lines.close();
      reject(new SandboxError('tracker_failed', `the sandbox's tracker server ${why}`));
    };
    const timer = setTimeout(() => failed(`printed no address in ${TRACKER_START_MS} ms`), TRACKER_START_MS);
    child.once('exit', (code) => failed(`exited (${String(code)}) before it listened`));
    lines.on('line', (line) => {
      const url = /^listening (\S+)$/.exec(line)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve(url);
    });
  });
}

async function startTrackerProcess(issuer: URL): Promise<{ url: string; stop(): Promise<void> }> {
  const { command, args, cwd } = exampleCommand('tracker');
  const child = spawn(command, [...args, '--issuer', issuer.href], {
    ...(cwd !== undefined && { cwd }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const url = await listeningUrl(child).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, stop };
}

export async function startSandboxSignIn(): Promise<SandboxSignIn> {
  const oauth = await startOAuthServer();
  const tracker = await startTrackerProcess(oauth.issuer).catch(async (error: unknown) => {
    await oauth.close();
    throw error;
  });
  oauth.resources.add(tracker.url);
  return {
    server: {
      name: TRACKER,
      transport: { kind: 'http', url: tracker.url, headers: {} },
      elicitationTimeoutMs: DEFAULT_ELICITATION_TIMEOUT_MS,
      elicitationMode: 'form',
      auth: { mode: 'oauth' },
    },
    issuer: oauth.issuer,
    stop: async () => {
      await tracker.stop();
      await oauth.close();
    },
  };
}
