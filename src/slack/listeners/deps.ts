// What the listeners need, built once by the Slack factory and handed to every `register(app, deps)`.
import type { Answering } from '../../answering/service.js';
import type { PostAckWork } from '../ack-gate.js';
import type { HomeTab } from '../home.js';
import type { Locales } from '../locales.js';
import type { OpenModals } from '../open-modals.js';
import type { SlackSurface } from '../surface.js';
import type { ToolResults } from '../tool-results.js';
import type { ToolRunner } from '../../relay/sources/mcp.js';
import type { Connections } from '../../mcp/index.js';
import type { SlackSignIn } from '../sign-in.js';
import type { Uninstalls } from '../uninstalls.js';
import type { PatternTimeouts } from '../../pattern-timeouts.js';

export interface ListenerDeps {
  /** Decides and records what each click and submit on a question means. */
  answering: Answering;
  surface: SlackSurface;
  /** Clicks on the App Home are answered by refreshing it (they carry no response_url). */
  home: Pick<HomeTab, 'refresh'>;
  /** Remembers each form opened, so it can be replaced if its question ends while it is open. */
  modals: Pick<OpenModals, 'opened'>;
  /** The MCP side, for `/mcp` (servers, tools, runs). */
  tools: ToolRunner;
  /** Runs a tool for a person and shows its progress and result. */
  results: ToolResults;
  locales: Locales;
  /** Where work that follows an ack waits while other Slack requests still wait for theirs (ack-gate.ts). */
  postAck: PostAckWork;
  /**
   * The app left a workspace (app_uninstalled, tokens_revoked): its installation and pending questions go; an
   * org-wide installation was granted or refused workspaces (team_access_granted, team_access_revoked).
   */
  uninstalls: Pick<Uninstalls, 'gone' | 'granted' | 'revoked'>;
  /** Sign-in to servers that need it; absent when no server does (issue #20). */
  signIn?: SignInDeps;
  /** Told of each server's pattern that ran out of time against a run's arguments (logged). */
  patterns: Pick<PatternTimeouts, 'within'>;
}

export interface SignInDeps {
  connections: Connections;
  prompter: Pick<SlackSignIn, 'prompt'>;
}

/** What `/mcp` and its follow-ups (Retry, the arguments form) need. */
export type CommandDeps = Pick<
  ListenerDeps,
  'tools' | 'results' | 'locales' | 'signIn' | 'postAck' | 'patterns'
>;
