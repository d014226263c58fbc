// The sandbox's local sign-in: an OAuth 2.1 authorization server (also the sign-in tests' fixture) and the
// tracker, a server that needs sign-in, started for one sandbox run.
export { startOAuthServer } from './authorization-server.js';
export type * from './parts.js';
export { OAuthError, type OAuthErrorCode } from './parts.js';
export { TRACKER, type SandboxSignIn, startSandboxSignIn } from './tracker.js';
