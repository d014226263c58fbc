// /api/v1/calls: run a tool on a configured server on behalf of a person (POST), and read the call with an
// optional long-poll (GET ?wait=). The call runs as if the person had typed `/mcp run` (call-runner.ts); a
// client sees only its own calls, and a named client only its `servers` and, as the person, its `targets`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mayTarget, type ApiClient } from './auth.js';
import type { CallRecord, NewCall } from './call-store.js';
import { apiServerName } from '../relay/sources/intake.js';
import type { RateLimit } from '../relay/relay.js';
import { ApiError, fromRelayError } from './errors.js';
import { readJson, sendJson } from './http.js';
import { createOnce } from './idempotency.js';
import { answerGet, ClientPoll } from './long-poll.js';
import { ID, rateLimitOf, type ResourceDeps } from './questions.js';
import { CALL_CREATE } from './schemas.js';
import { validator } from './validate.js';
import { workspaceOf } from './workspace.js';

interface CallCreate {
  server: string;
  tool: string;
  arguments?: Record<string, unknown>;
  as: { user: string; team?: string };
  callbackUrl?: string;
}

const validCreate = validator<CallCreate>(CALL_CREATE);

export interface CallsDeps extends ResourceDeps {
  /** The configured MCP servers' names. */
  servers: readonly string[];
  /** Stores the call and starts it (CallRunner.start). */
  start(call: NewCall, args: Record<string, unknown>): Promise<CallRecord>;
  /** Counts one new call against the client's budget (shared with its questions); RateLimitedError beyond it. */
  admit(name: string, limit: RateLimit): Promise<void>;
  get(id: string): Promise<CallRecord | undefined>;
  /** Whether the person may call the server without signing in first (a call cannot show them a prompt). */
  connected(server: string, person: { teamId: string; userId: string }): Promise<boolean>;
}

/** The contract's GET shape. */
export function callView(call: CallRecord): Record<string, unknown> {
  return {
    id: call.id,
    status: call.status,
    ...(call.result === undefined ? {} : { result: call.result }),
    ...(call.error === undefined ? {} : { error: call.error }),
    questions: call.questions,
  };
}

export async function createCall(
  deps: CallsDeps,
  client: ApiClient,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = validCreate(await readJson(req));
  const call = newCall(deps, client, body);
  const start = async (): Promise<CallRecord> => {
    if (!(await deps.connected(call.server, { teamId: call.team ?? '', userId: call.user })))
      throw notConnected(call);
    const limit = rateLimitOf(client);
    if (limit)
      await deps.admit(apiServerName(client.name), limit).catch((error: unknown) => {
        throw fromRelayError(error);
      });
    return deps.start(call, body.arguments ?? {});
  };
  const once = await createOnce(deps.idempotency, client.name, req, body, start);
  if ('created' in once) return sendJson(res, 202, created(once.created));
  const existing = await deps.get(once.replayOf);
  if (!existing) throw new ApiError('not_found', `Call ${once.replayOf} has expired.`);
  sendJson(res, 200, callView(existing));
}

const created = (call: CallRecord) => ({ id: call.id, status: 'running' });

function notConnected({ user, team, server }: NewCall): ApiError {
  const who = team === undefined ? user : `${user} (workspace ${team})`;
  const where = team === undefined ? 'in Slack' : 'in Slack, in that workspace';
  return new ApiError(
    'not_connected',
    `${who} has not signed in to ${server}: they run /mcp connect ${server} ${where}, then the call can be made.`,
  );
}

/** The call to store, once every rule of the client and the deployment allows it. */
function newCall(deps: CallsDeps, client: ApiClient, body: CallCreate): NewCall {
  const { server, tool, callbackUrl } = body;
  if (!deps.servers.includes(server)) {
    throw new ApiError('invalid_request', `/server: no MCP server named "${server}" is configured`);
  }
  if (client.servers !== undefined && !client.servers.includes(server)) {
    throw new ApiError('forbidden', `This client may not use the server ${server}.`);
  }
  if (!mayTarget(client, body.as.user)) {
    throw new ApiError('forbidden', `This client may not run calls as ${body.as.user}.`);
  }
  const refusal = callbackUrl === undefined ? undefined : deps.refuseCallback(callbackUrl);
  if (refusal) throw new ApiError('invalid_request', `/callbackUrl: ${refusal}`);
  const { teamId } = workspaceOf(deps.severalWorkspaces ?? false, body.as.team, '/as/team');
  return {
    client: client.name,
    server,
    tool,
    user: body.as.user,
    ...(teamId === undefined ? {} : { team: teamId }),
    ...(callbackUrl === undefined ? {} : { callbackUrl }),
  };
}

export async function getCall(
  deps: CallsDeps,
  client: ApiClient,
  id: string,
  query: URLSearchParams,
  res: ServerResponse,
): Promise<void> {
  return answerGet(new CallPoll(deps, client, id), query, res);
}

/** The client's own call as a long-poll reads it. */
class CallPoll extends ClientPoll<CallRecord, CallsDeps> {
  async read(): Promise<CallRecord | undefined> {
    const found = ID.test(this.id) ? await this.deps.get(this.id) : undefined;
    return found?.client === this.client.name ? found : undefined;
  }

  pending(call: CallRecord): boolean {
    return call.status === 'running';
  }

  view(call: CallRecord): Record<string, unknown> {
    return callView(call);
  }

  notFound(): Error {
    return new ApiError('not_found', `No call ${this.id}.`);
  }
}
