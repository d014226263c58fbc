// `/mcp connect <server>` and `/mcp disconnect <server>` (issue #20): a fresh Connect message in the person's
// DM, or their sign-in forgotten (the MCP side deletes their tokens). Replies are private, and so is what went
// wrong when the MCP side could not go on (the server or its sign-in unreachable, say).
import { escapeMrkdwn, signInText, type Locale, type SignInText } from '../../../../blocks/index.js';
import { SignInError, type Person } from '../../../mcp/index.js';
import type { SignInDeps } from '../deps.js';

export interface ConnectRequest {
  kind: 'connect' | 'disconnect';
  server: string;
  person: Person;
  locale: Locale;
}

/** The reply to `/mcp connect|disconnect`; `signIn` absent means no configured server needs sign-in. */
export async function connectReply(request: ConnectRequest, signIn: SignInDeps | undefined): Promise<string> {
  const t = signInText(request.locale);
  const server = `\`${escapeMrkdwn(request.server)}\``;
  if (signIn === undefined) return t.notOAuthServer(server);
  try {
    if (request.kind === 'disconnect') {
      const had = await signIn.connections.disconnect(request.server, request.person);
      return had ? t.disconnected(server) : t.wasNotConnected(server);
    }
    const need = await signIn.connections.begin(request.server, request.person);
    await signIn.prompter.prompt(need);
    return t.connectSent(server);
  } catch (error) {
    if (!(error instanceof SignInError)) throw error;
    return problemReply(error, server, t);
  }
}

/** What the person is told when the MCP side could not go on: the server (in code), and why. */
function problemReply(error: SignInError, server: string, t: SignInText): string {
  switch (error.code) {
    case 'not_oauth_server':
      return t.notOAuthServer(server);
    case 'discovery_failed':
      return t.connectUnreachable(server);
    default:
      return t.connectFailed(server, `\`${error.code}\``);
  }
}
