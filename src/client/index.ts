// The API's command-line client (`elicit-relay ask|call`). Front door of src/client.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { EXIT, runClient, type ClientIO } from './run.js';

export { CLIENT_USAGE, parseClientArgs, type ClientCommand } from './args.js';
export { EXIT, callExit, questionExit, runClient, type ClientIO } from './run.js';

/** The first word of a client command line. */
export const isClientCommand = (argv: string[]): boolean => argv[0] === 'ask' || argv[0] === 'call';

/** Runs the client with the process's environment, files, network and streams; resolves with the exit code. */
export function runClientProcess(argv: string[]): Promise<number> {
  const io: ClientIO = {
    env: process.env,
    readFile: (path) => readFileSync(path, 'utf8'),
    fetch: globalThis.fetch,
    sleep: (ms) => sleep(ms),
    now: Date.now,
    stdout: process.stdout,
    stderr: process.stderr,
  };
  // runClient answers every failure with an exit code; this is the last guard (its own stderr write failing),
  // since a rejection reaching cli.ts's top-level await makes Node exit 1, which reads as "declined".
  return runClient(argv, io).catch(() => EXIT.error);
}
