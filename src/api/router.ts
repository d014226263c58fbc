// The API's one request listener, mounted at /api/v1 on the bot's HTTP server: authenticates (except the
// OpenAPI document), routes, and turns every failure into the contract's error shape.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Clients } from './auth.js';
import { ApiError } from './errors.js';
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

export function apiRouter(deps: RouterDeps): RequestListener {
  const document = JSON.stringify(openApiDocument(API_PREFIX));
  const observed = deps.observe && finishListener(deps.observe);
  return (req, res) => {
    if (observed) res.on('finish', observed);
    route(deps, document, req, res).catch((error: unknown) => {
      if (error instanceof ApiError) return sendError(res, error);
      deps.logger.error({ err: error, method: req.method, url: req.url }, 'API request failed');
      sendError(res, new ApiError('internal', 'The request failed; see the bot log.'));
    });
  };
}

async function route(
  deps: RouterDeps,
  document: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://bot');
  const path = url.pathname.slice(API_PREFIX.length);
  const method = req.method ?? 'GET';
  if (path === '/openapi.json' && method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(document);
    return;
  }
  const client = deps.clients.authenticate(req);
  if (path === '/questions') {
    if (method !== 'POST') throw notAllowed('POST');
    return createQuestion(deps.questions, client, req, res);
  }
  const one = /^\/questions\/([^/]+)$/.exec(path);
  if (one?.[1] !== undefined) {
    const id = one[1];
    if (method === 'GET') return getQuestion(deps.questions, client, id, url.searchParams, res);
    if (method === 'DELETE') return withdrawQuestion(deps.questions, client, id, res);
    throw notAllowed('GET, DELETE');
  }
  if (deps.calls) {
    if (path === '/calls') {
      if (method !== 'POST') throw notAllowed('POST');
      return createCall(deps.calls, client, req, res);
    }
    const call = /^\/calls\/([^/]+)$/.exec(path);
    if (call?.[1] !== undefined) {
      if (method !== 'GET') throw notAllowed('GET');
      return getCall(deps.calls, client, call[1], url.searchParams, res);
    }
  }
  if (path === '/audit' && deps.audit) {
    if (method !== 'GET') throw notAllowed('GET');
    return listAudit(deps.audit, client, url.searchParams, res);
  }
  sendJson(res, 404, { error: { code: 'not_found', message: `No route ${method} ${url.pathname}.` } });
}

/**
 * One 'finish' listener for every response, reading its request from the response: nothing is made per request,
 * which a held long-poll would keep for its whole wait.
 */
function finishListener(observe: NonNullable<RouterDeps['observe']>): (this: ServerResponse) => void {
  return function observeFinish(this: ServerResponse) {
    observe(routeOf(this.req), this.req.method ?? 'GET', this.statusCode);
  };
}

/** The route a request is for, as a template: `/api/v1/questions/{id}`; `unmatched` for any other path. */
function routeOf(req: IncomingMessage): string {
  const path = new URL(req.url ?? '/', 'http://bot').pathname.slice(API_PREFIX.length);
  if (['/openapi.json', '/questions', '/calls', '/audit'].includes(path)) return `${API_PREFIX}${path}`;
  const one = /^\/(questions|calls)\/[^/]+$/.exec(path);
  return one ? `${API_PREFIX}/${one[1]}/{id}` : 'unmatched';
}

const notAllowed = (allowed: string): ApiError =>
  new ApiError('method_not_allowed', `Use ${allowed} on this path.`);
