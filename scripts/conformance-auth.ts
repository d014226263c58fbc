// The sign-in the conformance client uses for the auth/* scenarios: the bot's own SignInProvider and
// deployment grant (src/mcp/auth), with the person's browser replaced by following the authorization
// server's redirect (the scenarios' servers approve at once) and handing the code to exchangeCode, as the
// bot's callback route does.
import {
  deploymentAuth,
  EnterpriseProvider,
  exchangeCode,
  memoryStorage,
  SignInProvider,
  type McpAuth,
  type SessionAuth,
} from '../src/mcp/index.js';

/** The scenarios' client ID metadata document URL (auth/basic-cimd expects exactly this one). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT_URL = 'http://localhost:3000/callback';

interface ScenarioContext {
  name?: string;
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  /** auth/wif-jwt-bearer: the workload's JWT (the bot reads it from `auth.assertionFile`). */
  valid_jwt?: string;
  /** auth/enterprise-managed-authorization (SEP-990): the person's ID token and the IdP that issued it. */
  idp_id_token?: string;
  idp_client_id?: string;
  idp_token_endpoint?: string;
}

/** The sign-in for `serverUrl` in the scenario the CLI named in MCP_CONFORMANCE_SCENARIO (undefined: none). */
export function conformanceAuth(serverUrl: string, env = process.env): McpAuth | undefined {
  if (env.MCP_CONFORMANCE_SCENARIO?.startsWith('auth/') !== true) return undefined;
  const context = JSON.parse(env.MCP_CONFORMANCE_CONTEXT ?? '{}') as ScenarioContext;
  const sessionAuth = sessionAuthFor(serverUrl, context);
  return { forSession: () => Promise.resolve(sessionAuth) };
}

function sessionAuthFor(serverUrl: string, context: ScenarioContext): SessionAuth {
  const { client_id: clientId, client_secret: clientSecret, private_key_pem: pem, valid_jwt: jwt } = context;
  if (clientId !== undefined && context.idp_id_token !== undefined) return enterpriseAuth(clientId, context);
  if (clientId !== undefined && jwt !== undefined)
    return deploymentAuth('conformance', {
      kind: 'workload',
      clientId,
      assertion: () => Promise.resolve(jwt),
    });
  if (clientId !== undefined && pem !== undefined) {
    const algorithm = context.signing_algorithm ?? 'ES256';
    return deploymentAuth('conformance', { kind: 'jwt', clientId, privateKeyPem: pem, algorithm });
  }
  if (clientId !== undefined && clientSecret !== undefined && context.name?.includes('client-credentials'))
    return deploymentAuth('conformance', { kind: 'secret', clientId, clientSecret });
  let exchange: Promise<void> = Promise.resolve();
  const provider: SignInProvider = new SignInProvider({
    redirectUrl: REDIRECT_URL,
    clientName: 'elicit-relay-conformance',
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(clientId === undefined
      ? {}
      : { preRegistered: { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) } }),
    storage: memoryStorage(),
    onRedirect: (url) => {
      // Not awaited here: the SDK is still inside auth(); the hub awaits signedIn() after the 401.
      exchange = followAuthorization(url).then((callback) =>
        exchangeCode(provider, serverUrl, callback.code, callback.iss),
      );
      exchange.catch(() => undefined);
      return Promise.resolve();
    },
  });
  return { provider, signedIn: () => exchange };
}

/**
 * SEP-990: the scenario hands over the ID token the bot would hold from the person's IdP sign-in; the bot's
 * EnterpriseProvider exchanges it at the IdP's token endpoint and presents the ID-JAG at the MCP server's
 * authorization server (client_secret_basic with the pre-registered client).
 */
function enterpriseAuth(clientId: string, context: ScenarioContext): SessionAuth {
  const {
    idp_id_token: idToken = '',
    idp_client_id: idpClientId = '',
    client_secret: clientSecret,
  } = context;
  const provider = new EnterpriseProvider(
    {
      clientId,
      ...(clientSecret === undefined ? {} : { clientSecret }),
      idp: {
        clientId: idpClientId,
        ...(context.idp_token_endpoint === undefined ? {} : { tokenEndpoint: context.idp_token_endpoint }),
      },
      idToken: () => Promise.resolve(idToken),
    },
    memoryStorage(),
  );
  return {
    provider,
    signedIn: () => Promise.reject(new Error('the IdP or the authorization server refused')),
  };
}

/** What the person's browser would do: open the authorization URL and land on the callback with `code`. */
async function followAuthorization(url: URL): Promise<{ code: string; iss?: string }> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (location === null) throw new Error(`authorization answered ${response.status} without a redirect`);
  const query = new URL(location).searchParams;
  const code = query.get('code');
  if (code === null) throw new Error(`authorization redirected without a code: ${location}`);
  const iss = query.get('iss');
  return iss === null ? { code } : { code, iss };
}
