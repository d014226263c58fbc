// A bot stopped by a signal to its whole process group (Ctrl-C on `npm start`, `kill -TERM -- -<pgid>`): its
// stdio MCP servers get the signal too and exit at once, before the bot's stop reaches the MCP hub. Those
// exits are the shutdown, not failures: the bot logs no "MCP server unavailable" for them.
import { describe, expect, it } from 'vitest';
import { sandboxServers } from '../../src/sandbox/index.js';
import { fixtureCommand } from '../setup/compiled.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { waitForStdout, waitUntilReady, type CliRun } from './child.js';
import { groupOf, killGroup, logged, runBotInOwnGroup } from './own-group.js';
import { botEnv, processSetting } from './process-setting.js';

const SERVERS = ['forms', 'files'];

describe('a signal to the bot and its stdio MCP servers together', () => {
  const setting = processSetting('shutdown');

  it('stops without warning that the servers, exiting with it, are unavailable', async () => {
    const mcpServers = Object.fromEntries(SERVERS.map((name) => [name, fixtureCommand()]));
    const config = setting.serversFile('servers.json', mcpServers);
    const run = runBotInOwnGroup(
      botEnv(setting.standin, { ELICIT_RELAY_CONFIG: config, LOG_FORMAT: 'json' }),
      'compiled',
    );
    await stopsQuietly(run, SERVERS, 'SIGTERM');
  });

  it('stops the sandbox on Ctrl-C without warning that its example servers are unavailable', async () => {
    const run = runBotInOwnGroup(
      { REDIS_URL: redisUrl(), REDIS_PREFIX: uniquePrefix(), PORT: '0', LOG_FORMAT: 'json' },
      'source',
    );
    await stopsQuietly(
      run,
      sandboxServers().map((server) => server.name),
      'SIGINT',
    );
  });
});

/** Once `servers` are connected (their children up), signals the bot's group: exit 0, no server warned about. */
async function stopsQuietly(run: CliRun, servers: string[], signal: NodeJS.Signals): Promise<void> {
  const group = await groupOf(run);
  try {
    await waitUntilReady(run);
    for (const server of servers) {
      await waitForStdout(
        run,
        new RegExp(`"server":"${server}","state":"connected".*"MCP server connected"`),
      );
    }
    process.kill(group, signal);
    expect((await run.done).code).toBe(0);
  } finally {
    // Nothing of the group outlives the test, whatever failed above (a bot that never got ready, its servers).
    killGroup(group);
  }
  expect(logged(run, 'shutting down')).toHaveLength(1);
  expect(logged(run, 'MCP server unavailable')).toEqual([]);
}
