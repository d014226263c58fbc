// The one source of truth for the API's shapes: JSON Schemas (2020-12, as OpenAPI 3.1 uses them) from which
// both the ajv validators (validate.ts) and GET /api/v1/openapi.json (openapi.ts) are built. Request schemas
// refuse unknown fields (additionalProperties: false).
import { AUDIT_EVENT_TYPES } from '../audit/types.js';
import { END_REASONS, QUESTION_STATES } from '../relay/types.js';

/** Slack ids: people U…/W…, user groups S…, channels C…/G…. */
const USER_ID = { type: 'string', pattern: '^[UW][A-Z0-9]{1,20}$', description: 'A Slack user id.' } as const;
const USERGROUP_ID = { type: 'string', pattern: '^S[A-Z0-9]{1,20}$' } as const;
const CHANNEL_ID = { type: 'string', pattern: '^[CG][A-Z0-9]{1,20}$' } as const;
/** A Slack workspace (team) id, T…: only a bot installed in several workspaces needs it, and then always. */
const TEAM_ID = {
  type: 'string',
  pattern: '^T[A-Z0-9]{1,20}$',
  description:
    'The Slack workspace (team id, T…) of the people named. Required when the bot is installed in several workspaces (OAuth distribution); ignored when it serves one.',
} as const;

/**
 * How deep the objects and arrays of one request field may nest (metadata, a call's arguments, a
 * requestedSchema: free-form JSON). Far beyond any real form or metadata, and far below what the recursive code
 * such a field meets later can take (JSON.stringify of the stored record, the Idempotency-Key's canonical form,
 * ajv): a 40 KB body of 20,000 nested arrays overflows the stack there. validate.ts refuses deeper fields of
 * any request body, before anything is written.
 */
export const MAX_NESTING = 64;

/** Said where the schemas take free-form JSON, so the OpenAPI document states the limit. */
const NESTING_NOTE = `Objects and arrays nested at most ${MAX_NESTING} levels deep.`;

/**
 * A duration as in the config file (src/config/duration.ts): milliseconds, or a string such as "90s", "10m",
 * "2h", "1d", or several units largest first ("1h30m"; the order is checked when it is read).
 */
export const DURATION = {
  oneOf: [
    { type: 'string', pattern: '^\\s*(\\d+(\\.\\d+)?\\s*|(\\d+(\\.\\d+)?\\s*(ms|s|m|h|d)\\s*)+)$' },
    { type: 'integer', minimum: 0 },
  ],
  description:
    'Milliseconds, or a duration string such as "90s", "10m", "2h", "1d", "1h30m" (units largest first). At least 1s, at most 30d.',
} as const;

/**
 * What each pattern of these schemas stands for, as a refusal says it ("/to/channel: must be a channel id like
 * C…"): ajv's own message shows the regex, which tells a client little.
 */
export const PATTERN_WORDS: ReadonlyMap<string, string> = new Map([
  [USER_ID.pattern, 'a user id like U… or W…'],
  [USERGROUP_ID.pattern, 'a user group id like S…'],
  [CHANNEL_ID.pattern, 'a channel id like C… or G…'],
  [TEAM_ID.pattern, 'a workspace (team) id like T…'],
]);

/** What `timeout` takes, as a refusal says it: either form (a oneOf), and the bounds the API checks after. */
export const DURATION_WORDS =
  'a duration string like "90s", "10m", "2h" or "1h30m", or a whole number of milliseconds (from 1s to 30d)';

export const RECIPIENTS = {
  description:
    "Who may answer: one person (in their DM), several people (in a multi-person DM with the bot; more than 8, Slack's limit for one, get one card per DM of at most 8), a user group (its members, split the same way), or anyone in a channel (the card is posted there). Each named person has it in their App Home; the first authorised answer wins.",
  oneOf: [
    { type: 'object', additionalProperties: false, required: ['user'], properties: { user: USER_ID } },
    {
      type: 'object',
      additionalProperties: false,
      required: ['users'],
      properties: { users: { type: 'array', items: USER_ID, minItems: 1, maxItems: 100 } },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['usergroup'],
      properties: { usergroup: USERGROUP_ID },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['channel'],
      properties: { channel: CHANNEL_ID },
    },
  ],
} as const;

export const QUESTION_CREATE = {
  type: 'object',
  additionalProperties: false,
  required: ['message', 'requestedSchema', 'to'],
  properties: {
    message: { type: 'string', minLength: 1, maxLength: 10_000 },
    requestedSchema: {
      type: 'object',
      description: `An MCP elicitation requestedSchema (a flat object of primitive fields). ${NESTING_NOTE}`,
    },
    to: RECIPIENTS,
    team: TEAM_ID,
    timeout: DURATION,
    callbackUrl: { type: 'string', format: 'uri', maxLength: 2048 },
    metadata: {
      type: 'object',
      description: `The client's own data, kept with the question's record; not part of GET /questions/{id} or its webhook, whose fields are fixed. ${NESTING_NOTE}`,
    },
  },
} as const;

const DATE_TIME = { type: 'string', format: 'date-time' } as const;

export const ELICIT_RESULT = {
  type: 'object',
  additionalProperties: false,
  required: ['action'],
  properties: {
    action: { enum: ['accept', 'decline', 'cancel'] },
    content: {
      type: 'object',
      additionalProperties: {
        oneOf: [
          { type: 'string' },
          { type: 'number' },
          { type: 'boolean' },
          { type: 'array', items: { type: 'string' } },
        ],
      },
    },
  },
} as const;

/** A question's result: the ElicitResult, or an accepted one whose content is no longer kept, saying so. */
const QUESTION_RESULT = {
  ...ELICIT_RESULT,
  properties: {
    ...ELICIT_RESULT.properties,
    contentDropped: {
      const: true,
      description:
        'Set (with action accept and no content) when the answer was handed to the MCP server that asked and is no longer kept: what was answered cannot be shown.',
    },
  },
  description:
    'Exactly what an MCP server would have received; an accepted answer whose content is no longer kept says so with contentDropped instead.',
} as const;

export const QUESTION = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'status', 'createdAt', 'deadline'],
  properties: {
    id: { type: 'string' },
    status: { enum: QUESTION_STATES },
    result: QUESTION_RESULT,
    reason: { enum: END_REASONS },
    answeredBy: { ...USER_ID, description: 'Who answered, declined or closed it.' },
    createdAt: DATE_TIME,
    deadline: DATE_TIME,
    endedAt: DATE_TIME,
  },
} as const;

export const QUESTION_CREATED = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'status', 'deadline'],
  properties: { id: { type: 'string' }, status: { const: 'pending' }, deadline: DATE_TIME },
} as const;

export const ERROR = {
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
} as const;

/** Query of GET …/{id}: `wait` seconds to hold the request until the question ends (0–60). */
export const WAIT_QUERY = {
  type: 'object',
  additionalProperties: false,
  properties: { wait: { type: 'integer', minimum: 0, maximum: 60 } },
} as const;

/**
 * What a field expects as a whole, where one keyword's words would mislead: the duration's oneOf (its string
 * branch's "must be string" for 1500.5), the wait's bounds. Keyed by the schema object the validators check.
 */
export const FIELD_WORDS: ReadonlyMap<object, string> = new Map<object, string>([
  [DURATION, DURATION_WORDS],
  [WAIT_QUERY.properties.wait, 'a whole number of seconds from 0 to 60'],
]);

/** A configured MCP server's or its tool's name. */
const NAME = { type: 'string', minLength: 1, maxLength: 200 } as const;
const CALL_STATUSES = ['running', 'completed', 'failed'] as const;

export const CALL_CREATE = {
  type: 'object',
  additionalProperties: false,
  required: ['server', 'tool', 'as'],
  properties: {
    server: { ...NAME, description: 'A configured MCP server (a named client: one of its `servers`).' },
    tool: NAME,
    arguments: { type: 'object', description: `The tool's arguments; default {}. ${NESTING_NOTE}` },
    as: {
      type: 'object',
      additionalProperties: false,
      required: ['user'],
      properties: { user: USER_ID, team: TEAM_ID },
      description:
        "The person the call runs for, as if they had typed /mcp run: its questions go to them, and a server they sign in to is called with their grant (of that workspace's account).",
    },
    callbackUrl: QUESTION_CREATE.properties.callbackUrl,
  },
} as const;

export const CALL_CREATED = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'status'],
  properties: { id: { type: 'string' }, status: { const: 'running' } },
} as const;

export const CALL = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'status', 'questions'],
  properties: {
    id: { type: 'string' },
    status: { enum: CALL_STATUSES },
    result: {
      type: 'object',
      description: "The tool's MCP CallToolResult (content, structuredContent, isError), once it answered.",
    },
    error: { type: 'string', description: 'Why the call failed.' },
    questions: {
      type: 'array',
      items: { type: 'string' },
      description: 'The ids of the questions the call asked, in order.',
    },
  },
} as const;

/** GET /audit's answer: events in stored order (see src/audit/types.ts AuditEvent), and a cursor when there may be more. */
export const AUDIT_PAGE = {
  type: 'object',
  additionalProperties: false,
  required: ['events'],
  properties: {
    events: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'at'],
        properties: {
          id: { type: 'string' },
          type: { enum: AUDIT_EVENT_TYPES },
          at: DATE_TIME,
          question: { type: 'string' },
          call: { type: 'string' },
          server: { type: 'string' },
          tool: { type: 'string' },
          user: { type: 'string' },
          channel: {
            type: 'string',
            description:
              'The channel a question was asked of (anyone in it may answer); it then names no user.',
          },
          client: { type: 'string' },
          action: { enum: ['accept', 'decline', 'cancel'] },
          reason: { enum: END_REASONS },
          answeredBy: { type: 'string' },
          status: { enum: ['completed', 'failed'] },
        },
      },
    },
    cursor: { type: 'string', description: 'Pass as `cursor` for the next page.' },
  },
} as const;
