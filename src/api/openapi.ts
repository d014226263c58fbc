// GET /api/v1/openapi.json: the OpenAPI 3.1 document, built from the same schema objects the validators use
// (schemas.ts), so what it documents is what the API checks.
import {
  API_ERRORS,
  OPERATION_ERRORS,
  type ApiErrorCode,
  type ErrorHeader,
  type OperationId,
} from './errors.js';
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

/** How the document describes each header an error may carry (API_ERRORS' `headers`). */
const ERROR_HEADERS: Record<ErrorHeader, object> = {
  Allow: { description: 'The methods the path takes (RFC 9110).', schema: { type: 'string' } },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 1 },
  },
  'WWW-Authenticate': { description: 'Bearer.', schema: { type: 'string' } },
};

/** One response for `codes` that share a status: each code with its meaning, and the headers any of them carry. */
function errorResponse(codes: readonly ApiErrorCode[]): object {
  const description = codes.map((code) => `${code}: ${API_ERRORS[code].description}`).join(' ');
  const headersOf = (code: ApiErrorCode): readonly ErrorHeader[] => API_ERRORS[code].headers ?? [];
  const names = new Set(codes.flatMap(headersOf));
  // Required when every code of the status carries it: the API then always sends it.
  const required = (name: ErrorHeader) => codes.every((code) => headersOf(code).includes(name));
  const headers = Object.fromEntries(
    [...names].map((name) => [name, { ...ERROR_HEADERS[name], required: required(name) }]),
  );
  return { ...json(ref('Error'), description), ...(names.size > 0 ? { headers } : {}) };
}

/** The error responses of an operation, by status, from the codes it may answer (errors.ts OPERATION_ERRORS). */
function errorResponses(operation: OperationId): Record<string, object> {
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of OPERATION_ERRORS[operation]) {
    const { status } = API_ERRORS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries([...byStatus].map(([status, codes]) => [String(status), errorResponse(codes)]));
}

/** OpenAPI 3.1: a path parameter must say `required: true`. */
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

const COMPONENTS = {
  securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
  // A method a path does not take is answered 405 with Allow: that belongs to no operation of the document, so
  // it is described once here (and in info.description), not declared as if an operation could answer it.
  responses: { MethodNotAllowed: errorResponse(['method_not_allowed']) },
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
        ...errorResponses('createQuestion'),
      },
    },
  },
  '/questions/{id}': {
    get: {
      operationId: 'getQuestion',
      parameters: [ID_PARAM, WAIT_PARAM],
      responses: {
        '200': json(ref('Question'), 'The question (once ended, with its result).'),
        ...errorResponses('getQuestion'),
      },
    },
    delete: {
      operationId: 'withdrawQuestion',
      summary: 'Withdraw a pending question (cancelled, reason withdrawn; the card says so).',
      parameters: [ID_PARAM],
      responses: {
        '200': json(ref('Question'), 'The question as it is now.'),
        ...errorResponses('withdrawQuestion'),
      },
    },
  },
};

/**
 * The document of the API mounted at `apiPath` (the router's prefix, `/api/v1`). Its server is that path,
 * relative: OpenAPI resolves it against where the document was fetched, so it names the host and port the client
 * itself reached (a load balancer, an internal name, the sandbox page's server passing /api/v1 on), where
 * ELICIT_RELAY_PUBLIC_URL names where people's browsers reach the bot and defaults to localhost.
 */
export function openApiDocument(apiPath: string): object {
  return {
    openapi: '3.1.0',
    info: {
      title: 'elicit-relay Automations API',
      version: '1.0.0',
      description:
        'Ask people in Slack from pipelines and agents, and wait for their answer. Every path answers a ' +
        'method it does not take with 405 and an Allow header (components.responses.MethodNotAllowed).',
    },
    servers: [{ url: apiPath }],
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
          responses: { '200': { description: 'This document.' }, ...errorResponses('openApi') },
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
        ...errorResponses('createCall'),
      },
    },
  },
  '/calls/{id}': {
    get: {
      operationId: 'getCall',
      parameters: [ID_PARAM, WAIT_PARAM],
      responses: {
        '200': json(ref('Call'), 'The call (once ended, with its result or error).'),
        ...errorResponses('getCall'),
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
    summary:
      'The audit trail in stored order: oldest first, but for events stored late (a named client sees only its own events).',
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
      ...errorResponses('listAudit'),
    },
  },
};
