// LOG_FORMAT as the entry point applies it (child processes; their stdout is a pipe, so JSON unless told):
// readable lines with `pretty`, one JSON object per line with `json` or unset, a wrong value refused by name.
// The bots run compiled (a third of tsx's start-up): two started through tsx in one test took over its 40 s
// bound on a loaded machine.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SlackStandin } from '../../src/standin/index.js';
import { runCli, waitUntilReady } from './child.js';
import { botEnv, processSetting } from './process-setting.js';

/** The bot's stdout from start to ready, with LOG_FORMAT as given (absent when undefined). */
async function startupLines(standin: SlackStandin, config: string, format?: string): Promise<string[]> {
  const run = runCli(
    botEnv(standin, {
      ELICIT_RELAY_CONFIG: config,
      ...(format === undefined ? {} : { LOG_FORMAT: format }),
    }),
    [],
    'compiled',
  );
  await waitUntilReady(run);
  run.child.kill('SIGTERM');
  expect((await run.done).code).toBe(0);
  return run.stdout().split('\n').filter(Boolean);
}

describe('LOG_FORMAT', () => {
  const setting = processSetting('logs');
  let config: string;
  beforeAll(() => {
    config = setting.serversFile('none.json', {});
  });

  it('pretty: readable lines with time, level and message, fields indented below, no JSON', async () => {
    const lines = await startupLines(setting.standin, config, 'pretty');
    const ready = lines.find((line) => line.includes('elicit-relay is ready'));
    expect(ready).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: elicit-relay is ready$/);
    expect(lines.some((line) => /^\s+port: \d+$/.test(line))).toBe(true);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
  });

  it('json, and unset when stdout is not a terminal: one JSON object per line', async () => {
    for (const format of ['json', undefined]) {
      const lines = await startupLines(setting.standin, config, format);
      const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(records.find((r) => r.msg === 'elicit-relay is ready')).toMatchObject({ level: 30 });
    }
  });

  it('refuses any other value, naming LOG_FORMAT and the values it takes', async () => {
    const { code, stderr } = await runCli({ LOG_FORMAT: 'text' }, [], 'compiled').done;
    expect(code).toBe(2);
    expect(stderr).toContain('LOG_FORMAT: "text" is not a log format. Use json');
    expect(stderr).toContain('or pretty');
  });
});
