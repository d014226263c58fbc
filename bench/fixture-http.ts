// The elicit fixture as its own process over Streamable HTTP: one server instance per MCP session, so the bot
// opens a session per person without a process per person (over stdio, 50 people would start 50 processes of
// `node --import tsx`, which on 2 cores takes tens of seconds and measures process start-up, not the bot).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('../test/fixtures/elicit-server.ts', import.meta.url));

export interface HttpFixture {
  /** The MCP endpoint, e.g. http://127.0.0.1:40123/mcp. */
  url: string;
  close: () => Promise<void>;
}

export async function startHttpFixture(): Promise<HttpFixture> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, '--http', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The fixture ends with the bench, even one stopped by a signal.
  const stop = () => child.kill('SIGTERM');
  process.once('exit', stop);
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  const port = /^listening (\d+)$/.exec(line)?.[1];
  if (!port) throw new Error(`the HTTP fixture said "${line}"`);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      process.off('exit', stop);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      await gone;
    },
  };
}
