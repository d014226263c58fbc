// Mistakes an operator makes in the config file itself and in the environment, each of which must stop start-up
// naming the setting and the fix (or, where every other tool reads it so, be read as meant). Before, a config
// path that is a directory crashed start-up with a bare EISDIR stack, a file saved as UTF-16 by Windows Notepad
// was "not a mapping", YAML merge keys (`<<: *base`) lost the server's command, "1h30m" was refused, PORT=0x10
// listened on port 16, and REDIS_URL=redis://:6379 (an unset host variable) quietly meant localhost.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseDuration, type AppConfig } from '../../src/config/index.js';
import { configErrorOf } from '../support/config.js';

/** As the bot reads its files (src/bot-cli.ts): UTF-8 text, undefined when there is none, other errors thrown. */
function readFromDisk(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw error;
  }
}

function load(text: string, env: Record<string, string> = {}): AppConfig {
  return loadConfig({ env, readFile: (p) => (p === './elicit-relay.yml' ? text : undefined) });
}

describe('the config file as the operator saved it', () => {
  it('names ELICIT_RELAY_CONFIG when it points at a directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'elicit-relay-config-'));
    const error = configErrorOf(() =>
      loadConfig({ env: { ELICIT_RELAY_CONFIG: dir }, readFile: readFromDisk }),
    );
    expect(error.key).toBe('ELICIT_RELAY_CONFIG');
    expect(error.message).toContain(dir);
  });

  it('says to save a UTF-16 file (Windows Notepad) as UTF-8', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('{"mcpServers":{"gh":{"command":"x"}}}', 'utf16le'),
    ]);
    const error = configErrorOf(() => load(bytes.toString('utf8')));
    expect(error.key).toBe('./elicit-relay.yml');
    expect(error.message).toContain('UTF-8');
  });

  it('reads YAML merge keys, as Docker Compose files use them', () => {
    const text =
      'x-base: &base\n  command: npx\n  env: { A: b }\nmcpServers:\n  gh:\n    <<: *base\n    args: [-y, gh]\n';
    expect(load(text).servers[0]?.transport).toEqual({
      kind: 'stdio',
      command: 'npx',
      args: ['-y', 'gh'],
      env: { A: 'b' },
    });
  });
});

describe('durations', () => {
  it.each([
    ['1h30m', 5_400_000],
    ['2m30s', 150_000],
    ['1d12h', 129_600_000],
    ['1m 30s', 90_000],
  ])('reads the compound duration %j as Go and Kubernetes write it', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
    const file = `mcpServers:\n  gh:\n    command: x\n    elicitation: { timeout: "${text}" }\n`;
    expect(load(file).servers[0]?.elicitationTimeoutMs).toBe(ms);
  });

  it.each(['1h30', '30m1h', '1h1h', 'm', '10 min', '10M', '-5m', '1h-30m'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('environment variables', () => {
  it.each(['0x10', '1e3', '0b1'])('refuses PORT=%j instead of listening somewhere else', (port) => {
    expect(configErrorOf(() => load('', { PORT: port })).key).toBe('PORT');
  });

  it('still reads a PORT with spaces around it, as a .env line may have', () => {
    expect(load('', { PORT: ' 8080 ' }).port).toBe(8080);
  });

  it.each(['redis://', 'redis://:6379', 'redis:///0', 'rediss://:secret@:6380'])(
    'refuses REDIS_URL=%j, which names no host',
    (url) => {
      const error = configErrorOf(() => load('', { REDIS_URL: url }));
      expect(error.key).toBe('REDIS_URL');
      expect(error.message).not.toContain('secret');
    },
  );
});

describe('REDIS_URL written without its scheme', () => {
  it('says to add redis:// to host:port', () => {
    const error = configErrorOf(() => load('', { REDIS_URL: 'cache.internal:6379' }));
    expect(error.key).toBe('REDIS_URL');
    expect(error.message).toContain('redis://cache.internal:6379');
  });
});
