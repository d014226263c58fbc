// The bot token scopes the app asks for when a workspace installs it (OAuth) and that manifest.yml declares;
// test/ops/manifest-usage.test.ts checks both against the Web API methods the code calls.
export const BOT_SCOPES = [
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
] as const;
