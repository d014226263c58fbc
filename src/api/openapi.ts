// GET /api/v1/openapi.json: the OpenAPI 3.1 document, built from the same schema objects the validators use
// (schemas.ts), so what it documents is what the API checks.
import {
  AUDIT_PAGE,
  CALL,
  CALL_CREATE,
  CALL_CREATED,
  ERROR,
  QUESTION,
  QUESTION_CREATE,
  QUESTION_CREATED,
  RECIPIENTS,
  WAIT_QUERY,
} from './schemas.js';

const json = (schema: object, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const error = (description: string) => json(ref('Error'), description);

const ID_PARAM = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const WAIT_PARAM = {
  name: 'wait',
  in: 'query',
  required: false,
  description: 'Seconds to hold the request until the question or call ends (at most 60).',
  schema: WAIT_QUERY.properties.wait,
};
const IDEMPOTENCY_PARAM = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Kept 24 h per client: the same key and body give the same question or call (200), another body 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
const COMMON_ERRORS = {
  '400': error('A field is missing, unknown or ill-typed (the message names its path), or invalid_schema.'),
  '401': error('No bearer token, or a wrong one.'),
};

const COMPONENTS = {
  securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
  schemas: {
    QuestionCreate: QUESTION_CREATE,
    QuestionCreated: QUESTION_CREATED,
    Question: QUESTION,
    Recipients: RECIPIENTS,
    CallCreate: CALL_CREATE,
    CallCreated: CALL_CREATED,
    Call: CALL,
    AuditPage: AUDIT_PAGE,
    Error: ERROR,
  },
};

const QUESTION_PATHS = {
  '/questions': {
    post: {
      operationId: 'createQuestion',
      summary: 'Ask people a question (the same card and form as an MCP elicitation).',
      parameters: [IDEMPOTENCY_PARAM],
      requestBody: { required: true, content: { 'application/json': { schema: ref('QuestionCreate') } } },
      responses: {
        '201': json(ref('QuestionCreated'), 'Asked.'),
        '200': json(ref('Question'), 'The question this Idempotency-Key already created.'),
        ...COMMON_ERRORS,
        '409': error('The Idempotency-Key was used with another body.'),
        '413': error('The body is over 1 MB.'),
        '415': error('The body is not application/json.'),
        '429': error('Too many questions a minute; see Retry-After.'),
      },
    },
  },
  '/questions/{id}': {
    get: {
      operationId: 'getQuestion',
      parameters: [ID_PARAM, WAIT_PARAM],
      responses: {
        '200': json(ref('Question'), 'The question (once ended, with its result).'),
        ...COMMON_ERRORS,
        '404': error('No such question of this client.'),
      },
    },
    delete: {
      operationId: 'withdrawQuestion',
      summary: 'Withdraw a pending question (cancelled, reason withdrawn; the card says so).',
      parameters: [ID_PARAM],
      responses: {
        '200': json(ref('Question'), 'The question as it is now.'),
        '401': COMMON_ERRORS['401'],
        '404': error('No such question of this client.'),
      },
    },
  },
};

/** The document for a server reachable at `serverUrl` (the bot's public URL). */
export function openApiDocument(serverUrl: string): object {
  return {
    openapi: '3.1.0',
    info: {
      title: 'elicit-relay Automations API',
      version: '1.0.0',
      description: 'Ask people in Slack from pipelines and agents, and wait for their answer.',
    },
    servers: [{ url: `${serverUrl.replace(/\/$/, '')}/api/v1` }],
    security: [{ bearer: [] }],
    components: COMPONENTS,
    paths: {
      ...QUESTION_PATHS,
      ...CALL_PATHS,
      '/audit': AUDIT_PATH,
      '/openapi.json': {
        get: {
          operationId: 'openApi',
          security: [],
          responses: { '200': { description: 'This document.' } },
        },
      },
    },
  };
}

const CALL_PATHS = {
  '/calls': {
    post: {
      operationId: 'createCall',
      summary:
        "Run a server's tool on behalf of a person, as if they had typed /mcp run (their questions, their DM).",
      parameters: [IDEMPOTENCY_PARAM],
      requestBody: { required: true, content: { 'application/json': { schema: ref('CallCreate') } } },
      responses: {
        '202': json(ref('CallCreated'), 'Started.'),
        '200': json(ref('Call'), 'The call this Idempotency-Key already started.'),
        ...COMMON_ERRORS,
        '403': error('This client may not use the server, or run calls as this person.'),
        '409': error(
          'idempotency_conflict: the Idempotency-Key was used with another body; or not_connected: the person has ' +
            'not signed in to this server (it needs sign-in), and must run /mcp connect <server> in Slack first.',
        ),
        '413': error('The body is over 1 MB.'),
        '415': error('The body is not application/json.'),
      },
    },
  },
  '/calls/{id}': {
    get: {
      operationId: 'getCall',
      parameters: [ID_PARAM, WAIT_PARAM],
      responses: {
        '200': json(ref('Call'), 'The call (once ended, with its result or error).'),
        ...COMMON_ERRORS,
        '404': error('No such call of this client.'),
      },
    },
  },
};

const query = (name: string, description: string, schema: object = { type: 'string' }) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

const AUDIT_PATH = {
  get: {
    operationId: 'listAudit',
    summary: 'The audit trail, oldest first (a named client sees only its own events).',
    parameters: [
      query('since', 'RFC 3339: events at or after it.', { type: 'string', format: 'date-time' }),
      query('until', 'RFC 3339: events before it.', { type: 'string', format: 'date-time' }),
      query('server', 'Only events of this MCP server.'),
      query('user', 'Only events naming this person (who ran, was asked, or answered).'),
      query('client', 'Only events of this API client.'),
      query('limit', 'At most this many events (default 100).', {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
      }),
      query('cursor', "A previous page's cursor: continue after it."),
    ],
    responses: {
      '200': json(ref('AuditPage'), 'A page of events.'),
      ...COMMON_ERRORS,
    },
  },
};
