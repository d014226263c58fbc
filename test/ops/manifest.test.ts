import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, loadConfig } from '../../src/config/index.js';

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('manifest.yml', () => {
  const manifest = parse(read('../../manifest.yml')) as Record<string, unknown>;

  it('is a valid Slack app manifest (v1 schema)', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(read('./slack-app-manifest.schema.json')) as object);
    const valid = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('turns on the Home tab and subscribes at /slack/events to app_home_opened (the inbox) and the app leaving a workspace', () => {
    expect(manifest).toMatchObject({
      features: { app_home: { home_tab_enabled: true } },
      settings: {
        event_subscriptions: {
          request_url: expect.stringMatching(/\/slack\/events$/) as unknown,
          bot_events: [
            'app_home_opened',
            'app_uninstalled',
            'tokens_revoked',
            'team_access_granted',
            'team_access_revoked',
          ],
        },
      },
    });
  });

  it('declares /mcp, interactivity and select options at /slack/events, and the scopes the bot uses', () => {
    expect(manifest).toMatchObject({
      features: {
        slash_commands: [{ command: '/mcp', url: expect.stringMatching(/\/slack\/events$/) as unknown }],
      },
      oauth_config: {
        scopes: {
          bot: [
            'channels:read',
            'chat:write',
            'commands',
            'files:write',
            'groups:read',
            'im:read',
            'im:write',
            'mpim:read',
            'mpim:write',
            'usergroups:read',
            'users:read',
          ],
        },
      },
      settings: {
        interactivity: {
          is_enabled: true,
          request_url: expect.stringMatching(/\/slack\/events$/) as unknown,
          message_menu_options_url: expect.stringMatching(/\/slack\/events$/) as unknown,
        },
      },
    });
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(read('../../docker-compose.yml')) as {
    services: Record<string, { command?: string[]; environment?: Record<string, string> }>;
  };

  it('runs Redis with AOF and noeviction, and points the bot at it', () => {
    const command = compose.services.redis?.command?.join(' ') ?? '';
    expect(command).toContain('--appendonly yes');
    expect(command).toContain('--maxmemory-policy noeviction');
    expect(compose.services.bot?.environment?.REDIS_URL).toBe('redis://redis:6379');
  });

  /** The bot's environment as Compose builds it from `.env` (`${VAR:-default}` only). */
  const botEnv = (dotenv: Record<string, string>): Record<string, string> =>
    Object.fromEntries(
      Object.entries(compose.services.bot?.environment ?? {}).map(([key, value]) => [
        key,
        String(value).replace(
          /\$\{(\w+):-([^}]*)\}/g,
          (_, name: string, dflt: string) => dotenv[name] ?? dflt,
        ),
      ]),
    );
  const configFile = () => 'mcpServers: { a: { command: x } }';

  it.each([
    ['HTTP mode', { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' }, 'http'],
    ['Socket Mode', { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' }, 'socket'],
  ])('starts in %s from the settings a .env gives it', (_mode, dotenv, mode) => {
    expect(loadConfig({ env: botEnv(dotenv), readFile: configFile }).slack.mode).toBe(mode);
  });

  it('refuses to start without Slack settings, naming the missing one, instead of running the sandbox', () => {
    expect(() => loadConfig({ env: botEnv({}), readFile: configFile })).toThrow(ConfigError);
    expect(() => loadConfig({ env: botEnv({}), readFile: configFile })).toThrow(/SLACK_BOT_TOKEN/);
  });
});
