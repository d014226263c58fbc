// GET /api/v1/openapi.json: the OpenAPI 3.1 document, built from the same schema objects the validators use
// (schemas.ts), so what it documents is what the API checks.
import { ERROR, QUESTION, QUESTION_CREATE, QUESTION_CREATED, RECIPIENTS, WAIT_QUERY } from './schemas.js';

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
  description: 'Seconds to hold the request until the question ends (at most 60).',
  schema: WAIT_QUERY.properties.wait,
};
const IDEMPOTENCY_PARAM = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Kept 24 h per client: the same key and body give the same question (200), another body 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
const COMMON_ERRORS = {
  '400': error('A field is missing, unknown or ill-typed (the message names its path), or invalid_schema.'),
  '401': error('No bearer token, or a wrong one.'),
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
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        QuestionCreate: QUESTION_CREATE,
        QuestionCreated: QUESTION_CREATED,
        Question: QUESTION,
        Recipients: RECIPIENTS,
        Error: ERROR,
      },
    },
    paths: {
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
