// The deployment's own grant (`auth.mode: clientCredentials`), for automations: OAuth client credentials
// with a client secret (client_secret_basic) or a signed JWT assertion (private_key_jwt, RFC 7523); or
// (`auth.mode: workloadIdentity`) the platform's JWT for the workload as a JWT-bearer grant (workload.ts). No
// person signs in, so nothing can be waited for: a refused grant fails the connect or the call.
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/client';
import { SignInError } from './types.js';
import { WorkloadIdentityProvider } from './workload.js';
import type { SessionAuth } from './sign-in.js';

export type DeploymentGrant =
  | { kind: 'secret'; clientId: string; clientSecret: string; scopes?: string[]; issuer?: string }
  | {
      kind: 'jwt';
      clientId: string;
      /** PEM (PKCS#8) private key that signs the assertion. */
      privateKeyPem: string;
      /** JWS algorithm, e.g. ES256 or RS256. */
      algorithm: string;
      scopes?: string[];
    }
  | {
      kind: 'workload';
      clientId: string;
      /** The workload's current JWT, read from `auth.assertionFile` at each token request. */
      assertion: () => Promise<string>;
      scopes?: string[];
    };

export function deploymentAuth(server: string, grant: DeploymentGrant): SessionAuth {
  const scope = grant.scopes === undefined ? {} : { scope: grant.scopes.join(' ') };
  const provider =
    grant.kind === 'workload'
      ? new WorkloadIdentityProvider({ clientId: grant.clientId, assertion: grant.assertion, ...scope })
      : grant.kind === 'jwt'
        ? new PrivateKeyJwtProvider({
            clientId: grant.clientId,
            privateKey: grant.privateKeyPem,
            algorithm: grant.algorithm,
            ...scope,
          })
        : new ClientCredentialsProvider({
            clientId: grant.clientId,
            clientSecret: grant.clientSecret,
            ...scope,
            ...(grant.issuer === undefined ? {} : { expectedIssuer: grant.issuer }),
          });
  return {
    provider,
    signedIn: () =>
      Promise.reject(
        new SignInError(
          'token_exchange_failed',
          server,
          `${server} refused the deployment's ${grant.kind === 'workload' ? 'workload identity' : 'client credentials'}`,
        ),
      ),
  };
}
