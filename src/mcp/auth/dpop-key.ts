// DPoP (RFC 9449, SEP-1932): an authorization server that lists `dpop_signing_alg_values_supported` binds the
// tokens it issues to the client's key pair (`cnf.jkt`), so the key must outlive the process: it is kept with
// the grant in the vault, sealed like the tokens, and every replica signs its proofs with the same key. The
// SDK does the rest once the provider hands it a DpopSession: a proof on each token request and each request
// to the MCP endpoint, the `DPoP` Authorization scheme for a `token_type: DPoP` token, and the `use_dpop_nonce`
// retries (nonces are per process: a replica that has none is challenged once and retries).
import {
  DpopSession,
  generateDpopKeyPair,
  type AuthorizationServerMetadata,
  type DpopKeyPair,
} from '@modelcontextprotocol/client';
import { webcrypto } from 'node:crypto';

/** The JWS algorithms the bot signs proofs with (ECDSA, Web Crypto's curve names), most preferred first. */
const CURVES = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' } as const;
type DpopEcAlg = keyof typeof CURVES;

/** A grant's DPoP key pair as the vault keeps it (sealed): the private key as a JWK. Secret. */
export interface StoredDpopKey {
  alg: DpopEcAlg;
  privateJwk: webcrypto.JsonWebKey;
  publicJwk: DpopKeyPair['publicJwk'];
  /** RFC 7638 thumbprint of `publicJwk`: the `cnf.jkt` the tokens are bound to. */
  thumbprint: string;
}

/** Where a grant's DPoP key lives: created once, whichever replica is first (vault.ts, or memory). */
export interface DpopKeyStorage {
  loadDpopKey(): Promise<StoredDpopKey | undefined>;
  /** Keeps `key` unless the grant already has one; resolves to the key the grant has after the call. */
  claimDpopKey(key: StoredDpopKey): Promise<StoredDpopKey>;
}

/** The algorithm to sign with for this authorization server; undefined when it does not do DPoP (Bearer). */
export function dpopAlgFor(metadata: AuthorizationServerMetadata | undefined): DpopEcAlg | undefined {
  // Only RFC 8414 metadata types the field; OpenID Connect discovery documents may carry it too.
  const offered: unknown =
    metadata !== undefined && 'dpop_signing_alg_values_supported' in metadata
      ? metadata.dpop_signing_alg_values_supported
      : undefined;
  if (!Array.isArray(offered)) return undefined;
  return (Object.keys(CURVES) as DpopEcAlg[]).find((alg) => offered.includes(alg));
}

/** A new extractable key pair for a grant (extractable so that it can be sealed and shared by replicas). */
export async function newDpopKey(alg: DpopEcAlg): Promise<StoredDpopKey> {
  const pair = await generateDpopKeyPair({ alg, extractable: true });
  const privateJwk = await webcrypto.subtle.exportKey('jwk', pair.privateKey);
  return { alg, privateJwk, publicJwk: pair.publicJwk, thumbprint: pair.thumbprint };
}

/** The SDK's session signing with a stored key; the private key imported again is not extractable. */
export async function sessionOf(key: StoredDpopKey): Promise<DpopSession> {
  const algorithm = { name: 'ECDSA', namedCurve: CURVES[key.alg] };
  const { subtle } = webcrypto;
  const privateKey = await subtle.importKey('jwk', key.privateJwk, algorithm, false, ['sign']);
  const publicKey = await subtle.importKey('jwk', { ...key.publicJwk }, algorithm, true, ['verify']);
  return DpopSession.create({
    keyPair: { privateKey, publicKey, publicJwk: key.publicJwk, thumbprint: key.thumbprint, alg: key.alg },
  });
}

/**
 * One provider's DPoP: the grant's stored key, or a new one claimed for the grant once the authorization
 * server says it does DPoP. The session is kept while the grant's key is the same, so nonces the servers
 * sent are reused (RFC 9449 §8.2) instead of being asked for again on every request.
 */
export class GrantDpop {
  private current: DpopSession | undefined;

  constructor(
    private readonly storage: DpopKeyStorage,
    private readonly metadata: () => Promise<AuthorizationServerMetadata | undefined>,
  ) {}

  async session(): Promise<DpopSession | undefined> {
    const key = (await this.storage.loadDpopKey()) ?? (await this.claim());
    if (key === undefined) return undefined;
    if (this.current?.thumbprint !== key.thumbprint) this.current = await sessionOf(key);
    return this.current;
  }

  private async claim(): Promise<StoredDpopKey | undefined> {
    const alg = dpopAlgFor(await this.metadata());
    return alg === undefined ? undefined : this.storage.claimDpopKey(await newDpopKey(alg));
  }
}
