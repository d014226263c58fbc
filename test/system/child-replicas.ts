// More replicas of a harness's deployment as child processes (the compiled bot, src/cli.ts), for the system
// tests that kill one: same Redis prefix and Slack stand-in as the harness, each on its own port.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SlackDriver } from '../../src/standin/index.js';
import { fixtureCommand } from '../setup/compiled.js';
import { redisUrl } from '../setup/context.js';
import { freePort, runCli, waitUntilReady, type CliRun } from './child.js';
import { BOT_TOKEN, SIGNING_SECRET, type Harness } from './harness.js';

/**
 * The replica lease (ELICIT_RELAY_REPLICA_LEASE) of the replicas tests kill, in ms: their work moves to a survivor
 * within it instead of the default 15 s. Renewed every third of it, 5 s outlasts a stall of over 3 s of the child
 * on a loaded 2-core CI. The survivors, in the test's own process, keep the default: a stall of that process
 * never has them taken for dead, and they sweep every 5 s as before.
 */
export const KILLED_LEASE_MS = 5_000;

/**
 * One more replica of a harness's deployment as a child process (same Redis prefix, same Slack stand-in, the
 * fixture server, and `servers`: more `mcpServers` entries), on its own port, with the lease KILLED_LEASE_MS
 * unless `env` sets another; resolves once it is ready. Kill it through `run.child`.
 */
export async function childReplica(
  of: Pick<Harness, 'prefix' | 'standin'>,
  env: Record<string, string> = {},
  servers: Record<string, unknown> = {},
): Promise<{ run: CliRun; port: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-replica-'));
  const config = join(dir, 'config.json');
  const fixture = fixtureCommand();
  writeFileSync(config, JSON.stringify({ mcpServers: { fixture, ...servers } }));
  const port = await freePort();
  const run = runCli(
    {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: of.standin.apiUrl,
      REDIS_URL: redisUrl(),
      REDIS_PREFIX: of.prefix,
      PORT: String(port),
      ELICIT_RELAY_CONFIG: config,
      ELICIT_RELAY_REPLICA_LEASE: `${KILLED_LEASE_MS}ms`,
      ...env,
    },
    [],
    'compiled',
  );
  try {
    await waitUntilReady(run);
  } finally {
    // The replica has read its config at start-up; nothing else uses the folder.
    rmSync(dir, { recursive: true, force: true });
  }
  return { run, port };
}

/**
 * Longest a childReplica may take to start, in ms (a compiled bot in its own process with its MCP fixture): a hook
 * bound, so a test that kills one starts it in beforeAll and its own bound covers only what it checks.
 */
export const CHILD_START_MS = 90_000;

/** A childReplica with `servers` (for a test to SIGKILL through `doomed.child`), and a Slack driver for its events. */
export async function doomedReplica(
  of: Pick<Harness, 'prefix' | 'standin'>,
  servers: Record<string, unknown>,
): Promise<{ doomed: CliRun; driver: SlackDriver }> {
  const { run: doomed, port } = await childReplica(of, {}, servers);
  const driver = new SlackDriver({
    eventsUrl: `http://127.0.0.1:${port}/slack/events`,
    signingSecret: SIGNING_SECRET,
    standin: of.standin,
  });
  return { doomed, driver };
}
