// The Web API client a listener gets in a distributed app. Bolt 5.1 makes a client for each token its authorize
// answers and keeps it, per workspace, for the app's life (App.js `WebClientPool`, never emptied). With Slack's
// token rotation a workspace's bot token changes about every 10 h (token-refresh.ts), so each refresh left a
// client behind: ~27 KB each, ~190 MB a month on every replica at 100 workspaces. So Bolt is given an authorize
// that answers no token (Bolt then makes no client and passes its own tokenless `app.client`), and the answer's
// context carries the workspace's client from InstalledWorkspaces (one per workspace, let go when its token
// changes, the same one the calls outside listeners use), which the routes hand to listeners as their `client`.
import { webApi, type AllMiddlewareArgs, type Authorize, type AuthorizeResult } from '@slack/bolt';

/** Where in a request's context the workspace's client is (Bolt merges authorize's answer into the context). */
const WORKSPACE_CLIENT = 'workspaceClient';

/** An authorize answer's part that carries the workspace's client. */
export function withWorkspaceClient(client: webApi.WebClient): AuthorizeResult {
  return { [WORKSPACE_CLIENT]: client };
}

/** `authorize` answering without its bot and user tokens, so Bolt keeps no client of its own per token. */
export function tokenless(authorize: Authorize<boolean>): Authorize<boolean> {
  return async (source, body) => {
    const answer = { ...(await authorize(source, body)) };
    delete answer.botToken;
    delete answer.userToken;
    return answer;
  };
}

/**
 * The client a listener is given: its workspace's, when authorize put it in the context; else Bolt's own (one bot
 * token, or a request Bolt does not authorize: app_uninstalled, tokens_revoked).
 */
export function listenerClient(args: AllMiddlewareArgs): webApi.WebClient {
  const held: unknown = args.context[WORKSPACE_CLIENT];
  return held instanceof webApi.WebClient ? held : args.client;
}
