// What a sign-in keeps, and where: one SignInRecord per grant (a person's for one server, or the deployment's)
// in a SignInStorage, the encrypted Redis vault for the bot (vault.ts), memory for the conformance client and
// tests. Every write of a provider is a compare-and-set `update`, so sessions and replicas writing one grant
// at once lose nothing of each other's, and a grant deleted meanwhile is not written back.
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { DpopKeyStorage, StoredDpopKey } from './dpop-key.js';

/** What one person (or the deployment) keeps for one server. Secret: stored only encrypted (vault.ts). */
export interface SignInRecord {
  client?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
  codeVerifier?: string;
  discovery?: OAuthDiscoveryState;
  /** When the person's sign-in completed (epoch ms), shown in the App Home. */
  connectedAt?: number;
  /** When `tokens` were issued or refreshed (epoch ms): with `expires_in`, when they expire. */
  tokensAt?: number;
}

/**
 * Where a SignInRecord lives: memory (conformance, tests) or the encrypted Redis vault (the bot). The grant's
 * DPoP key is kept beside the record, claimed once (dpop-key.ts).
 */
export interface SignInStorage extends DpopKeyStorage {
  load(): Promise<SignInRecord>;
  /** Replaces the record whatever it holds (a sign-in completed). */
  save(record: SignInRecord): Promise<void>;
  /**
   * Changes the record in one step, whatever other sessions and replicas write meanwhile: `change` gets the
   * record as stored (undefined: there is none) and answers the next one, or undefined to leave it; it may be
   * asked again when another write landed first. True when it wrote.
   */
  update(change: (stored: SignInRecord | undefined) => SignInRecord | undefined): Promise<boolean>;
  /**
   * Waits until the grant's refresh is the caller's alone (every session and replica); resolves with the
   * claim's release. Bounded: rejects SignInError refresh_busy when the claim cannot be had in time (vault.ts),
   * or with `signal`'s reason once it aborts. Absent: nothing else refreshes this grant (memory).
   */
  claimRefresh?(signal?: AbortSignal): Promise<() => Promise<void>>;
}

/** A SignInStorage in this process's memory (conformance client, tests). */
export function memoryStorage(): SignInStorage {
  let record: SignInRecord = {};
  let dpopKey: StoredDpopKey | undefined;
  let exists = false;
  return {
    load: () => Promise.resolve({ ...record }),
    save: (next) => {
      record = { ...next };
      exists = true;
      return Promise.resolve();
    },
    update: (change) => {
      const next = change(exists ? { ...record } : undefined);
      if (next !== undefined) [record, exists] = [{ ...next }, true];
      return Promise.resolve(next !== undefined);
    },
    loadDpopKey: () => Promise.resolve(dpopKey),
    claimDpopKey: (key) => Promise.resolve((dpopKey ??= key)),
  };
}
