// manifest.yml declares exactly what the code uses: the scopes its Web API calls need (and the OAuth install
// asks for), its slash commands, the events it listens to, and its URLs. Read from the source, so a new call,
// command or event that the manifest lacks (or a leftover the code dropped) fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseMcpCommand } from '../../src/slack/command.js';
import { EVENTS_PATH } from '../../src/slack/http-server.js';
import { REDIRECT_PATH } from '../../src/slack/oauth.js';
import { BOT_SCOPES } from '../../src/slack/scopes.js';
import { IDENTITY_PATH } from '../../src/slack/sign-in-links.js';

/**
 * The bot scopes each Web API method needs as the bot calls it (docs.slack.dev method pages, by conversation
 * type); null: none. conversations.open opens a person's DM (im:write) and several people's multi-person DM
 * (mpim:write, an API question's `users`); conversations.members lists the conversation whose members may
 * answer: a public (channels:read) or private (groups:read) channel, or, for a run typed in a DM or group DM
 * with `route: thread` and `answerers.channel` (or an API question to one), that DM (im:read) or group DM
 * (mpim:read); Slack answers `missing_scope` with `needed` otherwise (bot-scopes-conversations.test.ts).
 */
const METHOD_SCOPES: Record<string, string | string[] | null> = {
  'chat.postMessage': 'chat:write',
  'chat.update': 'chat:write',
  'chat.postEphemeral': 'chat:write',
  'chat.delete': 'chat:write',
  'conversations.open': ['im:write', 'mpim:write'],
  'conversations.members': ['channels:read', 'groups:read', 'im:read', 'mpim:read'],
  'users.info': 'users:read',
  'usergroups.users.list': 'usergroups:read',
  'files.uploadV2': 'files:write',
  'files.getUploadURLExternal': 'files:write',
  'files.completeUploadExternal': 'files:write',
  'views.open': null,
  'views.update': null,
  'views.push': null,
  'views.publish': null,
};

const root = new URL('../../', import.meta.url).pathname;
/** The bot's own code; the stand-in and the sandbox play Slack's side. */
const SKIP = ['src/standin', 'src/sandbox'];

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (SKIP.includes(path)) return [];
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const code = [...sources('src'), ...sources('blocks')]
  .map((path) => readFileSync(join(root, path), 'utf8'))
  .join('\n');
const matches = (pattern: RegExp): string[] =>
  [...code.matchAll(pattern)].map((m) => m.slice(1).filter(Boolean).join('.'));

const used = {
  // client.chat.postMessage(…), client.filesUploadV2(…), and the outbox's method: 'chat.update'.
  methods: new Set([
    ...matches(/\.(chat|conversations|users|usergroups|views|files|reactions)\.(\w+)(?:\.(\w+))?\(/g),
    ...matches(/\.files(UploadV2)\(/g).map(() => 'files.uploadV2'),
    ...matches(/method: '(\w+\.\w+)'/g),
  ]),
  commands: new Set(matches(/\.command\('(\/[\w-]+)'/g)),
  events: new Set(matches(/\.event\('(\w+)'/g)),
};

interface Manifest {
  features: { slash_commands?: { command: string; url?: string; usage_hint?: string }[] };
  oauth_config: { scopes: { bot: string[] }; redirect_urls?: string[] };
  settings: {
    event_subscriptions?: { request_url?: string; bot_events?: string[] };
    interactivity: { request_url?: string };
  };
}
const manifest = parse(readFileSync(join(root, 'manifest.yml'), 'utf8')) as Manifest;

describe('manifest.yml against the code', () => {
  it('knows the scope of every Web API method the code calls', () => {
    expect([...used.methods].filter((m) => !(m in METHOD_SCOPES))).toEqual([]);
  });

  it('declares exactly the bot scopes those methods and the slash commands need, as the OAuth install asks', () => {
    const needed = new Set([...used.methods].flatMap((m) => METHOD_SCOPES[m] ?? []));
    if (used.commands.size > 0) needed.add('commands');
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...needed].sort());
    expect([...BOT_SCOPES].sort()).toEqual([...needed].sort());
  });

  it('declares exactly the slash commands and events the code listens to', () => {
    expect((manifest.features.slash_commands ?? []).map((c) => c.command).sort()).toEqual(
      [...used.commands].sort(),
    );
    expect([...(manifest.settings.event_subscriptions?.bot_events ?? [])].sort()).toEqual(
      [...used.events].sort(),
    );
  });

  it('hints at every /mcp subcommand of the README’s command table, each one the bot parses as itself', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = readme.split('### The `/mcp` command\n\n')[1]?.split('\n\n')[0] ?? '';
    const documented = [...new Set([...table.matchAll(/`\/mcp (\w+)/g)].map((m) => m[1]))];
    const hint = manifest.features.slash_commands?.find((c) => c.command === '/mcp')?.usage_hint ?? '';
    const hinted = hint.split(' | ').map((part) => part.split(' ')[0] ?? '');
    expect(documented).not.toEqual([]);
    expect([...hinted].sort()).toEqual([...documented].sort());
    // The placeholders stand for a server and a tool: each subcommand given them parses as that subcommand.
    expect(hinted.map((verb) => parseMcpCommand(`${verb} server tool`).kind)).toEqual(hinted);
  });

  it('points every request URL at the path the bot serves, and the OAuth redirects at their handlers', () => {
    const urls = [
      ...(manifest.features.slash_commands ?? []).map((c) => c.url),
      manifest.settings.event_subscriptions?.request_url,
      manifest.settings.interactivity.request_url,
    ];
    expect(urls.map((url) => new URL(url ?? 'http://missing/').pathname)).toEqual(
      urls.map(() => EVENTS_PATH),
    );
    expect((manifest.oauth_config.redirect_urls ?? []).map((url) => new URL(url).pathname)).toEqual([
      REDIRECT_PATH,
      IDENTITY_PATH,
    ]);
  });
});
