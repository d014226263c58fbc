// Whom a gateway tool call at POST /mcp runs for, as POST /api/v1/calls says it: each gateway tool takes an
// `as` argument of the calls' shape ({user, team?}) besides its own (unless the tool has an `as` of its own),
// defaulting to the client's `as` or `api.gateway.as` (each with its configured team). A bot installed in several Slack workspaces needs the
// workspace every time (`as.team`): the person's grant to a server they sign in to, and the token their
// questions go out with, are that workspace's. A bad argument is a tool error naming it (`invalid_request:
// /as/team: …`, as a 400 names the field on the HTTP API and as ask_human answers a bad `/team`): MCP
// 2025-11-25 reports input validation errors in the tool's result (isError) so the agent can correct its call,
// and keeps -32602 for a tool that cannot be found. A person the client may not act for is `forbidden` (403).
import { EndpointRefusal } from '../mcp/index.js';
import type { Origin } from '../relay/types.js';
import { mayTarget, type ApiClient } from './auth.js';
import { ApiError } from './errors.js';
import { CALL_CREATE } from './schemas.js';
import { validator } from './validate.js';
import { workspaceOf } from './workspace.js';

/** The `as` argument added to each gateway tool's input schema. */
export const GATEWAY_AS = {
  ...CALL_CREATE.properties.as,
  description:
    'The person the call runs for (its questions go to them in Slack, and a server they sign in to is called ' +
    "with their grant). Default: the API client's `as`, or api.gateway.as. `team` (T…) is required when the " +
    'bot is installed in several Slack workspaces.',
};

interface PersonArgument {
  as?: { user: string; team?: string };
}
const validAs = validator<PersonArgument>({ type: 'object', properties: { as: GATEWAY_AS } });

/** A gateway tool's input schema with the `as` argument added; undefined when the tool has its own `as`. */
export function withPersonArgument(schema: unknown): Record<string, unknown> | undefined {
  const object = isObject(schema) && schema.type === 'object' ? schema : { type: 'object' };
  const properties = isObject(object.properties) ? object.properties : {};
  if ('as' in properties) return undefined;
  return { ...object, properties: { ...properties, as: GATEWAY_AS } };
}

export interface GatewayPersonDeps {
  /** The bot is installed in several Slack workspaces: each call names its `as.team`. */
  severalWorkspaces: boolean;
  /** `api.gateway.as`, and its workspace (required by the config when the bot serves several). */
  gatewayAs?: string;
  gatewayTeam?: string;
}

/**
 * Marks the listing's origin as an API call's: nobody is sent a Connect message and nothing waits for a
 * sign-in (auth/person-auth.ts), so a tools/list answers at once; a server the person has no grant to is left
 * out of it.
 */
export const LISTING_CALL_ID = 'tools/list';

/**
 * Whom POST /mcp lists a gateway server's tools as: the client's configured person (its `as`, else
 * api.gateway.as) in their configured workspace, whose grant a server people sign in to is listed with. The
 * listing is one per server, the same for every caller (the hub caches it); a call names its own person.
 */
export function listingPerson(deps: GatewayPersonDeps, client: ApiClient): Origin {
  const configured = configuredPerson(deps, client);
  const teamId = deps.severalWorkspaces ? configured?.team : undefined;
  return {
    // Nobody configured: a server nobody signs in to lists its tools whoever asks.
    userId: configured?.user ?? client.name,
    ...(teamId === undefined ? {} : { teamId }),
    callId: LISTING_CALL_ID,
  };
}

/** The client's `as` with its team, else api.gateway.as with its team. */
function configuredPerson(
  deps: GatewayPersonDeps,
  client: ApiClient,
): { user: string; team?: string } | undefined {
  if (client.as !== undefined)
    return { user: client.as, ...(client.asTeam === undefined ? {} : { team: client.asTeam }) };
  if (deps.gatewayAs === undefined) return undefined;
  return { user: deps.gatewayAs, ...(deps.gatewayTeam === undefined ? {} : { team: deps.gatewayTeam }) };
}

/**
 * The origin a gateway call runs with, and the tool's own arguments (`as` taken out when `takesAs`). Throws
 * EndpointRefusal: invalid_request naming `/as/...` for a bad or missing argument, forbidden for a person the
 * client may not act for, no_person when nobody is named at all.
 */
export function gatewayPerson(
  deps: GatewayPersonDeps,
  client: ApiClient,
  call: { args: Record<string, unknown>; takesAs?: boolean },
): { origin: Origin; args: Record<string, unknown> } {
  const { as: given, ...own } = call.args;
  const named = call.takesAs === true ? refused(() => validAs({ as: given }).as) : undefined;
  // A person named in the call brings their own workspace; the configured one comes with theirs.
  const person = named ?? configuredPerson(deps, client);
  const user = person?.user;
  if (user === undefined) {
    const fix = 'Name one in the `as` argument, or set api.gateway.as (or the client’s `as`).';
    throw new EndpointRefusal('no_person', `Gateway tools need a person to ask. ${fix}`);
  }
  if (named !== undefined && !mayTarget(client, named.user))
    throw new EndpointRefusal('forbidden', `This client may not run calls as ${named.user}.`);
  const workspace = refused(() => workspaceOf(deps.severalWorkspaces, person?.team, '/as/team'));
  return { origin: { userId: user, ...workspace }, args: call.takesAs === true ? own : call.args };
}

/** An API refusal of an argument as the tool error its agent reads: the same code and message. */
function refused<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ApiError) throw new EndpointRefusal(error.code, error.message);
    throw error;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
