// The API's one request listener, mounted at /api/v1 on the bot's HTTP server: authenticates (except the
// OpenAPI document), routes, and turns every failure into the contract's error shape.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ApiClient, Clients } from './auth.js';
import { ApiError, OPERATION_ERRORS, unavailableFrom, type OperationId } from './errors.js';
import { sendError, sendJson } from './http.js';
import { openApiDocument } from './openapi.js';
import { listAudit, type AuditReader } from './audit.js';
import { createCall, getCall, type CallsDeps } from './calls.js';
import { createQuestion, getQuestion, withdrawQuestion, type QuestionsDeps } from './questions.js';

export const API_PREFIX = '/api/v1';

export interface RouterDeps {
  clients: Clients;
  questions: QuestionsDeps;
  logger: { error(obj: object, msg: string): void };
  /** /calls; without it those routes are not served. */
  calls?: CallsDeps;
  /** GET /audit reads it (src/audit); without it the route is not served. */
  audit?: AuditReader;
  /** Hears each answered request: its route template (never an id), method and status (metrics). */
  observe?: (route: string, method: string, status: number) => void;
}

/** One request as an operation sees it: the authenticated client, and the id its path names. */
interface Call {
  client: ApiClient;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  id: string;
}

/** An operation, by its OpenAPI operationId (which names the error codes it may answer: OPERATION_ERRORS). */
type Operation =
  | { id: OperationId; open?: false; run(call: Call): Promise<void> }
  /** Served without a token: the OpenAPI document. */
  | { id: 'openApi'; open: true; run(res: ServerResponse): void };

interface Route {
  /** The path as the OpenAPI document writes it, under API_PREFIX. */
  template: string;
  pattern: RegExp;
  /** Every operation of the path is served without a token. */
  open: boolean;
  /** By HTTP method. */
  methods: ReadonlyMap<string, Operation>;
}

/** The routes this router serves: /calls and /audit only with their dependencies. */
function routesOf(deps: RouterDeps, document: string): Route[] {
  const { questions: q, calls, audit } = deps;
  const routes = [
    route('/openapi.json', {
      GET: { id: 'openApi', open: true, run: (res) => serveDocument(res, document) },
    }),
    route('/questions', {
      POST: { id: 'createQuestion', run: (c) => createQuestion(q, c.client, c.req, c.res) },
    }),
    route('/questions/{id}', {
      GET: { id: 'getQuestion', run: (c) => getQuestion(q, c.client, c.id, c.url.searchParams, c.res) },
      DELETE: { id: 'withdrawQuestion', run: (c) => withdrawQuestion(q, c.client, c.id, c.res) },
    }),
  ];
  if (calls) {
    routes.push(
      route('/calls', { POST: { id: 'createCall', run: (c) => createCall(calls, c.client, c.req, c.res) } }),
      route('/calls/{id}', {
        GET: { id: 'getCall', run: (c) => getCall(calls, c.client, c.id, c.url.searchParams, c.res) },
      }),
    );
  }
  if (audit) {
    const run = (c: Call) => listAudit(audit, c.client, c.url.searchParams, c.res);
    routes.push(route('/audit', { GET: { id: 'listAudit', run } }));
  }
  return routes;
}

function route(template: string, methods: Record<string, Operation>): Route {
  const operations = Object.values(methods);
  return {
    template,
    // The template's own characters literally (the `.` of /openapi.json), `{id}` one path segment.
    pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace('{id}', '([^/]+)')}$`),
    open: operations.every((operation) => operation.open === true),
    methods: new Map(Object.entries(methods)),
  };
}

function serveDocument(res: ServerResponse, document: string): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(document);
}

/** The route a path (after API_PREFIX) is, with the id it names; undefined when none. */
function match(routes: readonly Route[], path: string): { route: Route; id: string } | undefined {
  for (const route of routes) {
    const found = route.pattern.exec(path);
    if (found) return { route, id: found[1] ?? '' };
  }
  return undefined;
}

export function apiRouter(deps: RouterDeps): RequestListener {
  const routes = routesOf(deps, JSON.stringify(openApiDocument(API_PREFIX)));
  const observed = deps.observe && finishListener(deps.observe, routes);
  return (req, res) => {
    if (observed) res.on('finish', observed);
    const url = new URL(req.url ?? '/', 'http://bot');
    const found = match(routes, url.pathname.slice(API_PREFIX.length));
    const operation = found?.route.methods.get(req.method ?? 'GET');
    serve(deps, { found, operation, url }, req, res).catch((error: unknown) =>
      answerFailure(deps, operation?.id, req, res, error),
    );
  };
}

async function serve(
  deps: RouterDeps,
  { found, operation, url }: { found: ReturnType<typeof match>; operation: Operation | undefined; url: URL },
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (operation?.open) return operation.run(res);
  // A public path with another method: no token is needed to learn which methods it takes.
  if (found?.route.open) throw notAllowed(found.route);
  const client = deps.clients.authenticate(req);
  if (!found) {
    const message = `No route ${req.method ?? 'GET'} ${url.pathname}.`;
    return sendJson(res, 404, { error: { code: 'not_found', message } });
  }
  if (!operation) throw notAllowed(found.route);
  return operation.run({ client, req, res, url, id: found.id });
}

/**
 * The contract's answer to a failure: the API's own errors as they are; a store that cannot answer now is 503
 * `unavailable` (retried, whichever route met it), told by its code; anything else is a bug of ours (500,
 * logged). An error code the operation's OpenAPI entry does not declare is logged too: the document is wrong.
 */
function answerFailure(
  deps: RouterDeps,
  operation: OperationId | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  error: unknown,
): void {
  const answer = error instanceof ApiError ? error : unavailableFrom(error);
  if (answer === undefined) {
    deps.logger.error({ err: error, method: req.method, url: req.url }, 'API request failed');
    return sendError(res, new ApiError('internal', 'The request failed; see the bot log.'));
  }
  const declared: readonly string[] = operation === undefined ? [] : OPERATION_ERRORS[operation];
  if (operation !== undefined && !declared.includes(answer.code)) {
    deps.logger.error(
      { code: answer.code, operation },
      'API error code not declared for this operation in the OpenAPI document (src/api/errors.ts)',
    );
  }
  sendError(res, answer);
}

/** 405 with the methods the path takes, as RFC 9110 asks (Allow). */
function notAllowed(route: Route): ApiError {
  const allow = [...route.methods.keys()];
  const error = new ApiError('method_not_allowed', `Use ${allow.join(' or ')} on this path.`);
  error.allow = allow;
  return error;
}

/**
 * One 'finish' listener for every response, reading its request from the response: nothing is made per request,
 * which a held long-poll would keep for its whole wait. It labels a request by its route's template
 * (`/api/v1/questions/{id}`, never an id), `unmatched` for any other path.
 */
function finishListener(
  observe: NonNullable<RouterDeps['observe']>,
  routes: readonly Route[],
): (this: ServerResponse) => void {
  return function observeFinish(this: ServerResponse) {
    const path = new URL(this.req.url ?? '/', 'http://bot').pathname.slice(API_PREFIX.length);
    const found = match(routes, path);
    observe(
      found ? `${API_PREFIX}${found.route.template}` : 'unmatched',
      this.req.method ?? 'GET',
      this.statusCode,
    );
  };
}
