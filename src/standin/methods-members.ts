// Membership methods of the stand-in: user groups (usergroups.users.list) and channel members
// (conversations.members, paginated with next_cursor), answered with Slack's shapes and errors.
import { type ApiBody, type Handler, fail, nonEmpty } from './methods-chat.js';
import { missingScope } from './scopes.js';

/** conversations.members: default and largest page (docs.slack.dev method page). */
const MEMBERS_LIMIT_DEFAULT = 100;
const MEMBERS_LIMIT_MAX = 1000;

const usergroupUsers: Handler = (args, store) => {
  const refused = missingScope(store, 'usergroups.users.list');
  if (refused) return refused;
  const id = nonEmpty(args.usergroup);
  if (!id) return fail('missing_argument');
  const users = store.usergroups[id];
  if (!users) return fail('no_such_subteam');
  return { ok: true, users: [...users] };
};

const conversationsMembers: Handler = (args, store) => {
  const channel = nonEmpty(args.channel);
  const members = channel ? store.membersOf(channel) : undefined;
  if (!channel || !members) return fail('channel_not_found');
  const refused = missingScope(store, 'conversations.members', store.typeOf(channel));
  if (refused) return refused;
  const limit = args.limit === undefined ? MEMBERS_LIMIT_DEFAULT : Number(args.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MEMBERS_LIMIT_MAX) return fail('invalid_limit');
  const from = startOf(args.cursor);
  if (from === undefined || from > members.length) return fail('invalid_cursor');
  const page = members.slice(from, from + limit);
  const next = from + limit < members.length ? cursorOf(from + limit) : '';
  return { ok: true, members: page, response_metadata: { next_cursor: next } } satisfies ApiBody;
};

const cursorOf = (offset: number): string => Buffer.from(`offset:${offset}`).toString('base64');

function startOf(cursor: unknown): number | undefined {
  if (cursor === undefined || cursor === '') return 0;
  if (typeof cursor !== 'string') return undefined;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString());
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

export const MEMBER_METHODS: Record<string, Handler> = {
  'usergroups.users.list': usergroupUsers,
  'conversations.members': conversationsMembers,
};
