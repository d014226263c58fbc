// The real entry point as a child process: refuses wrong settings with a message naming them, serves
// /healthz once ready, and stops cleanly on SIGTERM.
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { freePort, runCli, waitUntilReady } from './child.js';
import { fixtureCommand } from '../setup/compiled.js';
import { BOT_TOKEN, SIGNING_SECRET } from './harness.js';
import { botEnv, processSetting } from './process-setting.js';

const slackEnv = { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET };

describe('elicit-relay start-up', () => {
  const setting = processSetting('cli');

  it('refuses an invalid setting, naming the key and the fix', async () => {
    const { code, stderr } = await runCli({ ...slackEnv, PORT: 'eighty' }).done;
    expect(code).toBe(2);
    expect(stderr).toContain('PORT: "eighty" is not a port number. Use an integer');
  });

  it('refuses an invalid config file, naming the server key', async () => {
    const file = setting.writeFile(
      'bad.yml',
      'mcpServers:\n  files:\n    command: node\n    elicitation: { timeout: soon }\n',
    );
    const { code, stderr } = await runCli({ ...slackEnv, ELICIT_RELAY_CONFIG: file }).done;
    expect(code).toBe(2);
    expect(stderr).toContain('mcpServers.files.elicitation.timeout');
  });

  it('says clearly when Redis is unreachable at start-up', async () => {
    const { code, stderr } = await runCli({
      ...slackEnv,
      SLACK_API_URL: setting.standin.apiUrl,
      REDIS_URL: 'redis://127.0.0.1:1',
    }).done;
    expect(code).toBe(1);
    expect(stderr).toMatch(/redis:\/\/127\.0\.0\.1:1/);
  });

  it('serves /healthz once ready and exits 0 on SIGTERM', async () => {
    const file = setting.serversFile('ok.json', { fixture: fixtureCommand() });
    const port = await freePort();
    const run = runCli(botEnv(setting.standin, { PORT: String(port), ELICIT_RELAY_CONFIG: file }));
    await waitUntilReady(run);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    run.child.kill('SIGTERM');
    expect((await run.done).code).toBe(0);
  });

  it('runs the sandbox when no Slack credentials are set, serving its page at the printed address', async () => {
    const port = await freePort();
    const run = runCli({ REDIS_URL: redisUrl(), REDIS_PREFIX: uniquePrefix(), PORT: String(port) });
    await waitUntilReady(run);
    // The address is printed right after the bot reports ready.
    while (!run.stdout().includes('sandbox')) await once(run.child.stdout ?? run.child, 'data');
    expect(run.stdout()).toContain(`open http://localhost:${port}/`);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    run.child.kill('SIGTERM');
    expect((await run.done).code).toBe(0);
  });

  it('refuses a bad sandbox command line with the usage, exit 2', async () => {
    const { code, stderr } = await runCli({}, ['sandbox', '--serve', 'node ./my-server.js']).done;
    expect(code).toBe(2);
    expect(stderr).toContain('unknown option "--serve"');
    expect(stderr).toContain('Usage: elicit-relay [sandbox [--server <server>]...]');
  });

  it('refuses an unknown ELICIT_RELAY_MODE', async () => {
    const { code, stderr } = await runCli({ ELICIT_RELAY_MODE: 'prod' }).done;
    expect(code).toBe(2);
    expect(stderr).toContain('ELICIT_RELAY_MODE');
  });
});
