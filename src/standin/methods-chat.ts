// Web API methods of the stand-in other than views.*: auth, conversations, chat, users.
import { MESSAGE_TEXT_MAX } from '../../blocks/slack-limits.js';
import { type Obj, formatIssue } from './blockkit-check.js';
import { type BlockKitIssue, validateMessageBlocks } from './blockkit.js';
import { missingScope, postsToPublicChannels } from './scopes.js';
import { type PostedMessage, type Store, withGeneratedIds } from './store.js';

export type ApiBody = Obj & { ok: boolean; error?: string };
export type Handler = (args: Obj, store: Store) => ApiBody;

export const fail = (error: string, messages?: string[]): ApiBody =>
  messages ? { ok: false, error, response_metadata: { messages } } : { ok: false, error };

export const nonEmpty = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : undefined;

/** chat.* answer `invalid_blocks` with the reasons both in `errors` and `response_metadata.messages`. */
export const invalidBlocks = (issues: BlockKitIssue[]): ApiBody => ({
  ok: false,
  error: 'invalid_blocks',
  errors: issues.map((i) => `${i.message} [json-pointer:${i.pointer}]`),
  response_metadata: { messages: issues.map(formatIssue) },
});

/** The message object Slack returns from chat.* and sends in block_actions payloads. */
export function messageObject(store: Store, m: PostedMessage): Obj {
  const { botUserId, botId, appId, teamId } = store.identity;
  const blocks = m.blocks ? { blocks: m.blocks } : {};
  return {
    user: botUserId,
    type: 'message',
    ts: m.ts,
    bot_id: botId,
    app_id: appId,
    text: m.text ?? '',
    team: teamId,
    ...(m.threadTs && { thread_ts: m.threadTs }),
    ...blocks,
  };
}

/** The checks chat.postMessage / chat.update / postEphemeral share; returns an error body or undefined. */
export function checkContent(args: Obj, requireContent: boolean): ApiBody | undefined {
  if (typeof args.text === 'string' && [...args.text].length > MESSAGE_TEXT_MAX) return fail('msg_too_long');
  if (requireContent && !nonEmpty(args.text) && args.blocks === undefined) return fail('no_text');
  const issues = validateMessageBlocks(args.blocks);
  return issues.length > 0 ? invalidBlocks(issues) : undefined;
}

/** Channel ids Slack would accept from this bot: public/private channels, its DMs, or a user id. */
function knownChannel(store: Store, channel: string | undefined): string | undefined {
  if (!channel) return undefined;
  const resolved = store.resolveChannel(channel);
  if (/^[CG][A-Z0-9]+$/.test(resolved)) return resolved;
  return store.isDmChannel(resolved) ? resolved : undefined;
}

/**
 * An archived conversation refuses posts (`is_archived`); a listed channel whose members leave out the bot
 * refuses them as Slack does: `not_in_channel` in a public channel unless the token has chat:write.public,
 * `channel_not_found` in a private group. Unlisted channels take them.
 */
function membershipError(store: Store, channel: string): ApiBody | undefined {
  if (store.archived.has(channel)) return fail('is_archived');
  const members = store.channelMembers[channel];
  if (!members || members.includes(store.identity.botUserId)) return undefined;
  if (channel.startsWith('G')) return fail('channel_not_found');
  return postsToPublicChannels(store) ? undefined : fail('not_in_channel');
}

const textOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const blocksOf = (v: unknown): unknown[] | undefined =>
  Array.isArray(v) ? (withGeneratedIds(v) as unknown[]) : undefined;

const postMessage: Handler = (args, store) => {
  const channel = knownChannel(store, nonEmpty(args.channel));
  if (!channel) return fail('channel_not_found');
  const bad = membershipError(store, channel) ?? checkContent(args, true);
  if (bad) return bad;
  const m: PostedMessage = {
    channel,
    ts: store.nextTs(),
    text: textOf(args.text),
    blocks: blocksOf(args.blocks),
    updates: 0,
    ...(nonEmpty(args.thread_ts) && { threadTs: nonEmpty(args.thread_ts) }),
  };
  store.putMessage(m);
  return { ok: true, channel, ts: m.ts, message: messageObject(store, m) };
};

const update: Handler = (args, store) => {
  const m = store.message(nonEmpty(args.channel) ?? '', nonEmpty(args.ts) ?? '');
  if (!m) return fail('message_not_found');
  // docs.slack.dev chat.update: "The message cannot be edited within a frozen, archived or deleted channel."
  if (store.archived.has(m.channel)) return fail('is_inactive');
  const bad = checkContent(args, false);
  if (bad) return bad;
  if (typeof args.text === 'string') m.text = args.text;
  if (args.blocks !== undefined) m.blocks = blocksOf(args.blocks);
  m.updates += 1;
  return { ok: true, channel: m.channel, ts: m.ts, text: m.text ?? '', message: messageObject(store, m) };
};

const postEphemeral: Handler = (args, store) => {
  const channel = knownChannel(store, nonEmpty(args.channel));
  if (!channel) return fail('channel_not_found');
  const userId = nonEmpty(args.user);
  if (!userId) return fail('user_not_in_channel');
  const bad = membershipError(store, channel) ?? checkContent(args, true);
  if (bad) return bad;
  store.ephemerals.push({ channel, userId, text: textOf(args.text), blocks: blocksOf(args.blocks) });
  return { ok: true, message_ts: store.nextTs() };
};

/** Most users conversations.open takes besides the caller: a multi-person DM has at most 9 members. */
const MPIM_MAX_USERS = 8;

/** One user: the DM with them; several (comma-separated): the multi-person DM of them and the bot. */
const conversationsOpen: Handler = (args, store) => {
  const users = (nonEmpty(args.users) ?? '').split(',').filter(Boolean);
  const [first] = users;
  if (first === undefined) return fail('users_list_not_supplied');
  if (!users.every((id) => /^[UW][A-Z0-9]+$/.test(id))) return fail('user_not_found');
  if (users.length > MPIM_MAX_USERS) return fail('too_many_users');
  if (users.some((id) => store.user(id).deleted === true)) return fail('user_disabled');
  const refused = missingScope(store, 'conversations.open', users.length === 1 ? 'im' : 'mpim');
  if (refused) return refused;
  const id = users.length === 1 ? store.dmChannelOf(first) : store.mpimChannelOf(users);
  return { ok: true, channel: { id } };
};

const usersInfo: Handler = (args, store) => {
  const refused = missingScope(store, 'users.info');
  if (refused) return refused;
  const id = nonEmpty(args.user);
  if (!id || !/^[UW][A-Z0-9]+$/.test(id)) return fail('user_not_found');
  const u = store.user(id);
  const locale =
    args.include_locale === true || args.include_locale === 'true' ? { locale: u.locale ?? 'en-US' } : {};
  const realName = u.realName ?? u.name;
  return {
    ok: true,
    user: {
      id,
      team_id: store.identity.teamId,
      name: u.name,
      real_name: realName,
      deleted: u.deleted === true,
      is_bot: false,
      tz: u.tz ?? 'Etc/UTC',
      tz_offset: 0,
      profile: { real_name: realName, display_name: u.name },
      ...locale,
    },
  };
};

/** An org-wide install's token answers with the org's URL and id (@slack/oauth keeps it as `enterpriseUrl`). */
const authTest: Handler = (_args, store) => {
  const { teamId, teamDomain, botUserId, botId, enterpriseId } = store.identity;
  const org = enterpriseId === undefined ? {} : { enterprise_id: enterpriseId };
  return {
    ok: true,
    url:
      enterpriseId === undefined
        ? `https://${teamDomain}.slack.com/`
        : `https://${teamDomain}.enterprise.slack.com/`,
    team: teamDomain,
    user: 'elicit-relay',
    team_id: teamId,
    user_id: botUserId,
    bot_id: botId,
    ...org,
    is_enterprise_install: enterpriseId !== undefined,
  };
};

export const CHAT_METHODS: Record<string, Handler> = {
  'auth.test': authTest,
  'conversations.open': conversationsOpen,
  'chat.postMessage': postMessage,
  'chat.update': update,
  'chat.postEphemeral': postEphemeral,
  'users.info': usersInfo,
};
