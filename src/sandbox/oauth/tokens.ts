// The local authorization server's tokens (authorization-server.ts): authorization codes, access and refresh
// tokens kept in memory, the /token grants (authorization_code with PKCE, refresh_token, client_credentials),
// /revoke (RFC 7009), and the admin's hold on them (verify, revoke a person's grants, expire access tokens).
import type { IncomingMessage } from 'node:http';
import {
  authenticateClient,
  OAuthError,
  required,
  s256,
  type Code,
  type Grant,
  type RegisteredClient,
  type Revocation,
  type TokenInfo,
  type TokenRequest,
} from './parts.js';

/** How long an authorization code can be exchanged, ms. */
const CODE_TTL_MS = 60_000;

export interface TokenSettings {
  /** Epoch ms. */
  now: () => number;
  /** A fresh code or token value. */
  secret: () => string;
  /** Lifetime of access tokens, ms. */
  ttlMs: number;
  clients: Map<string, RegisteredClient>;
  /** The resources (RFC 8707) tokens may be issued for: client_credentials defaults to the first. */
  resources: Set<string>;
}

export class Tokens {
  private readonly codes = new Map<string, Code>();
  private readonly accessTokens = new Map<string, TokenInfo>();
  private readonly refreshTokens = new Map<string, Grant>();
  /** Every token request, in order (OAuthServer.tokenRequests). */
  readonly requests: TokenRequest[] = [];
  /** Every revocation request that authenticated its client, in order. */
  readonly revocations: Revocation[] = [];

  constructor(private readonly s: TokenSettings) {}

  /** A new code for an approved authorization request, exchangeable once within CODE_TTL_MS. */
  issueCode(request: Omit<Code, 'expiresAt'>): string {
    const code = this.s.secret();
    this.codes.set(code, { ...request, expiresAt: this.s.now() + CODE_TTL_MS });
    return code;
  }

  /** The live access token's details, or undefined when unknown, revoked or expired. */
  verify(value: string): TokenInfo | undefined {
    const info = this.accessTokens.get(value);
    return info !== undefined && info.expiresAt > this.s.now() ? info : undefined;
  }

  revokeGrants(subject: string): void {
    for (const [key, info] of this.accessTokens) if (info.subject === subject) this.accessTokens.delete(key);
    for (const [key, grant] of this.refreshTokens)
      if (grant.subject === subject) this.refreshTokens.delete(key);
  }

  expireAccessTokens(): void {
    for (const info of this.accessTokens.values()) info.expiresAt = this.s.now() - 1;
  }

  /** POST /token's answer; a refused request is recorded with its error before it is thrown. */
  tokenResponse(req: IncomingMessage, params: URLSearchParams): object {
    const grantType = params.get('grant_type') ?? '';
    try {
      return this.grantTokens(req, params, grantType);
    } catch (error) {
      if (error instanceof OAuthError) this.requests.push({ grantType, error: error.code });
      throw error;
    }
  }

  /** RFC 7009: only the client the token was issued to may revoke it; an unknown token is still 200. */
  revoke(req: IncomingMessage, params: URLSearchParams): object {
    const client = authenticateClient(this.s.clients, req, params, this.s.now());
    const value = required(params, 'token');
    const owner = (this.accessTokens.get(value) ?? this.refreshTokens.get(value))?.clientId;
    const known = owner === client.clientId;
    if (known && !this.accessTokens.delete(value)) this.refreshTokens.delete(value);
    const hint = params.get('token_type_hint');
    this.revocations.push({ clientId: client.clientId, known, ...(hint === null ? {} : { hint }) });
    return {};
  }

  private grantTokens(req: IncomingMessage, params: URLSearchParams, grantType: string): object {
    const client = authenticateClient(this.s.clients, req, params, this.s.now());
    if (grantType === 'authorization_code') {
      const { grant } = this.exchangeCode(client, params);
      this.requests.push({ grantType, subject: grant.subject });
      return this.issue(grant, true);
    }
    if (grantType === 'refresh_token') {
      const body = this.refresh(client, params);
      this.requests.push({ grantType, subject: this.verify(body.access_token)?.subject });
      return body;
    }
    if (grantType === 'client_credentials') {
      if (client.clientSecret === undefined) throw new OAuthError('unauthorized_client', 'confidential only');
      const scopes = (params.get('scope') ?? 'mcp').split(' ').filter((s) => s !== '');
      const resource = params.get('resource') ?? [...this.s.resources][0] ?? '';
      this.requests.push({ grantType, subject: `client:${client.clientId}` });
      return this.issue(
        { subject: `client:${client.clientId}`, clientId: client.clientId, scopes, resource },
        false,
      );
    }
    throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);
  }

  private issue(grant: Grant, withRefresh: boolean, refreshToken?: string) {
    const access = this.s.secret();
    this.accessTokens.set(access, { ...grant, expiresAt: this.s.now() + this.s.ttlMs });
    const refresh = withRefresh ? (refreshToken ?? this.s.secret()) : undefined;
    if (refresh !== undefined) this.refreshTokens.set(refresh, grant);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: Math.round(this.s.ttlMs / 1000),
      scope: grant.scopes.join(' '),
      ...(refresh === undefined ? {} : { refresh_token: refresh }),
    };
  }

  private exchangeCode(client: RegisteredClient, params: URLSearchParams) {
    const codeValue = required(params, 'code');
    const code = this.codes.get(codeValue);
    this.codes.delete(codeValue);
    if (code === undefined || code.expiresAt <= this.s.now() || code.clientId !== client.clientId) {
      throw new OAuthError('invalid_grant', 'unknown, used or expired code');
    }
    if (params.get('redirect_uri') !== code.redirectUri)
      throw new OAuthError('invalid_grant', 'redirect_uri differs');
    if (s256(required(params, 'code_verifier')) !== code.challenge) {
      throw new OAuthError('invalid_grant', 'PKCE verification failed');
    }
    const resource = params.get('resource');
    if (resource !== null && resource !== code.resource)
      throw new OAuthError('invalid_target', 'resource differs');
    return { grant: { ...code, clientId: client.clientId }, subject: code.subject };
  }

  private refresh(client: RegisteredClient, params: URLSearchParams) {
    const value = required(params, 'refresh_token');
    const grant = this.refreshTokens.get(value);
    if (grant === undefined || grant.clientId !== client.clientId) {
      throw new OAuthError('invalid_grant', 'refresh token revoked or unknown');
    }
    const resource = params.get('resource');
    if (resource !== null && resource !== grant.resource)
      throw new OAuthError('invalid_target', 'resource differs');
    return this.issue(grant, true, value);
  }
}
