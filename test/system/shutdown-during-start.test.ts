// A stop signal while the bot is still starting (Ctrl-C on `npm start` while Slack's auth.test, a slow Redis or
// a slow MCP server keeps it waiting): the start-up ends at once, quietly. Its stdio MCP servers, spawned
// already and signalled with the bot's process group, exit with it; that is the stop, not their failure.
import { describe, expect, it } from 'vitest';
import { fixtureCommand } from '../setup/compiled.js';
import { waitForStdout } from './child.js';
import { groupOf, killGroup, logged, records, runBotInOwnGroup } from './own-group.js';
import { botEnv, processSetting } from './process-setting.js';

const SERVERS = ['forms', 'files'];

describe('a stop signal during start-up', () => {
  const setting = processSetting('start-stop');

  // Ctrl-C on `npm start` signals the whole process group, the stdio servers with the bot; an orchestrator's
  // SIGTERM reaches the bot alone, which then closes its servers itself.
  it.each([
    { signal: 'SIGINT', to: 'group' },
    { signal: 'SIGTERM', to: 'bot' },
  ] as const)(
    'ends the start-up Slack holds on $signal to the $to: stops what started, warns of no server',
    async ({ signal, to }) => {
      const mcpServers = Object.fromEntries(SERVERS.map((n) => [n, fixtureCommand()]));
      const config = setting.serversFile('servers.json', mcpServers);
      // Slack never answers the bot token's check: the start-up waits there, its MCP servers up already.
      const authTest = setting.standin.holdNext('auth.test');
      const run = runBotInOwnGroup(
        botEnv(setting.standin, { ELICIT_RELAY_CONFIG: config, LOG_FORMAT: 'json' }),
        'compiled',
      );
      const group = await groupOf(run);
      let exit;
      try {
        await authTest.arrived;
        for (const server of SERVERS) {
          await waitForStdout(
            run,
            new RegExp(`"server":"${server}","state":"connected".*"MCP server connected"`),
          );
        }
        process.kill(to === 'group' ? group : -group /* the bot's pid */, signal);
        exit = await run.done;
      } finally {
        killGroup(group);
        authTest.release();
      }
      // auth.test is never answered: only a start-up that ends on the signal exits 0 (not 2, the Web API's
      // timeout taken for a wrong SLACK_API_URL, nor 1, the exit bound).
      expect({
        code: exit.code,
        shuttingDown: logged(run, 'shutting down').length,
        ready: logged(run, 'elicit-relay is ready'),
        // pino's warn is 40: "MCP server unavailable", a part or the bot given up on, an error.
        warnings: records(run).filter((record) => Number(record.level) >= 40),
      }).toEqual({ code: 0, shuttingDown: 1, ready: [], warnings: [] });
    },
  );
});
