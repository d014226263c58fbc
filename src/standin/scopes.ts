// The bot token's scopes as Slack checks them for the Conversations API, whose scopes depend on the
// conversation's type (docs.slack.dev method pages, "Required scopes"): a token without the one the
// conversation needs is answered `missing_scope`, naming the scope `needed` and the token's `provided`.
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

/**
 * Slack's answer when the calling token lacks the scope `method` needs on a conversation of type `type`, else
 * undefined (also for a token whose scopes the stand-in was not told: Identity.scopes).
 */
export function missingScope(store: Store, method: string, type: ConversationType): ApiBody | undefined {
  const scopes = store.identity.scopes;
  const needed = TYPE_SCOPES[method]?.[type];
  if (scopes === undefined || needed === undefined || scopes.includes(needed)) return undefined;
  return { ok: false, error: 'missing_scope', needed, provided: scopes.join(',') };
}
