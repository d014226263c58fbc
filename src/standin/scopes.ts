// The bot token's scopes as Slack checks them (docs.slack.dev method pages, "Required scopes"): for the
// Conversations API by the conversation's type, for users.info and usergroups.users.list by method. A token
// without the scope a call needs is answered `missing_scope`, naming the scope `needed` and the token's `provided`.
import type { ApiBody } from './methods-chat.js';
import type { ConversationType, Store } from './store.js';

/** The scope each type-dependent method needs, by conversation type. */
const TYPE_SCOPES: Record<string, Record<ConversationType, string>> = {
  'conversations.members': {
    public_channel: 'channels:read',
    private_channel: 'groups:read',
    im: 'im:read',
    mpim: 'mpim:read',
  },
  'conversations.open': {
    public_channel: 'channels:write',
    private_channel: 'groups:write',
    im: 'im:write',
    mpim: 'mpim:write',
  },
};

/** The scope each method whose scope does not depend on a conversation needs. */
const METHOD_SCOPES: Record<string, string> = {
  'users.info': 'users:read',
  'usergroups.users.list': 'usergroups:read',
};

/**
 * Whether the calling token may post in a public channel it is not a member of: only with chat:write.public
 * (docs.slack.dev chat.postMessage), which the app does not request, so a token whose scopes the stand-in was
 * not told has it not either; without it such a post answers `not_in_channel`.
 */
export function postsToPublicChannels(store: Store): boolean {
  return store.identity.scopes?.includes('chat:write.public') === true;
}

/**
 * Slack's answer when the calling token lacks the scope `method` needs (on a conversation of type `type`, for
 * a Conversations API method), else undefined (also for a token whose scopes the stand-in was not told).
 */
export function missingScope(store: Store, method: string, type?: ConversationType): ApiBody | undefined {
  const scopes = store.identity.scopes;
  const needed = type === undefined ? METHOD_SCOPES[method] : TYPE_SCOPES[method]?.[type];
  if (scopes === undefined || needed === undefined || scopes.includes(needed)) return undefined;
  return { ok: false, error: 'missing_scope', needed, provided: scopes.join(',') };
}
