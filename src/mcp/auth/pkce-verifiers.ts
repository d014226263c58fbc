// The PKCE verifiers one SignInProvider saved for authorization URLs it has not handed on yet. The SDK saves a
// verifier, then hands over the URL carrying its S256 code_challenge (RFC 7636 §4.2): the verifier is found again
// by that challenge, so concurrent sign-ins of one provider keep theirs apart.
import { createHash } from 'node:crypto';

export class PendingVerifiers {
  private readonly byChallenge = new Map<string, string>();

  keep(verifier: string): void {
    this.byChallenge.set(s256(verifier), verifier);
  }

  /** The verifier of authorization URL `url` (by its code_challenge), no longer kept here once taken. */
  take(url: URL): string | undefined {
    const challenge = url.searchParams.get('code_challenge') ?? '';
    const verifier = this.byChallenge.get(challenge);
    this.byChallenge.delete(challenge);
    return verifier;
  }
}

/** The PKCE S256 code challenge of `verifier`. */
function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}
