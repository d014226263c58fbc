// The setting of the tests that run the bot as a child process in HTTP mode: Slack's stand-in and a folder of
// their own for the bot's servers files, made before a describe's tests and removed after them, and the bot's
// environment against that stand-in.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startSlackStandin, type SlackStandin } from '../../src/standin/index.js';
import { redisUrl, uniquePrefix } from '../setup/context.js';
import { BOT_TOKEN, SIGNING_SECRET } from './harness.js';

export interface ProcessSetting {
  /** The stand-in, started before the describe's tests. */
  readonly standin: SlackStandin;
  /** Writes `text` to `file` in the folder; its path. */
  writeFile: (file: string, text: string) => string;
  /** Writes `{ mcpServers }` as JSON to `file` in the folder; its path, for ELICIT_RELAY_CONFIG. */
  serversFile: (file: string, mcpServers: Record<string, unknown>) => string;
}

/** The setting of one describe; its folder's name starts `elicit-relay-<name>-`. */
export function processSetting(name: string): ProcessSetting {
  let standin: SlackStandin | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    standin = await startSlackStandin({ botToken: BOT_TOKEN });
    dir = mkdtempSync(join(tmpdir(), `elicit-relay-${name}-`));
  });
  afterAll(async () => {
    await standin?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  const writeFile = (file: string, text: string): string => {
    if (dir === undefined) throw new Error('the folder is made in beforeAll');
    const path = join(dir, file);
    writeFileSync(path, text);
    return path;
  };
  return {
    get standin() {
      if (standin === undefined) throw new Error('the stand-in starts in beforeAll');
      return standin;
    },
    writeFile,
    serversFile: (file, mcpServers) => writeFile(file, JSON.stringify({ mcpServers })),
  };
}

/**
 * The bot's environment against `standin` in HTTP mode, on a Redis key prefix of its own and any free port;
 * `more` adds to it or overrides it.
 */
export function botEnv(standin: SlackStandin, more: Record<string, string> = {}): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: standin.apiUrl,
    REDIS_URL: redisUrl(),
    REDIS_PREFIX: uniquePrefix(),
    PORT: '0',
    ...more,
  };
}
