// The API's tests' shared parts: the Contract that checks a reply against the OpenAPI document the API serves
// (status declared, JSON body matching the declared schema, required headers sent), and the router on a local
// server over fakes, for tests that drive it without a bot.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { AuditReader } from '../../src/api/audit.js';
import { Clients } from '../../src/api/auth.js';
import type { CallsDeps } from '../../src/api/calls.js';
import { Idempotency } from '../../src/api/idempotency.js';
import type { QuestionsDeps } from '../../src/api/questions.js';
import type { RouterDeps } from '../../src/api/router.js';
import { systemClock } from '../../src/clock.js';
import type { RedisClient } from '../../src/redis/index.js';
import type { Reply } from '../system/api-support.js';

interface Response {
  content?: Record<string, { schema?: unknown }>;
  headers?: Record<string, { required?: boolean }>;
}

interface Operation {
  operationId?: string;
  responses: Record<string, Response>;
}

export interface OpenApiDoc {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; responses?: Record<string, Response> };
}

/** The document as the API serves it (JSON), read as an OpenApiDoc: the tests check what they use of it. */
export function openApiDoc(served: unknown): OpenApiDoc {
  return JSON.parse(JSON.stringify(served)) as OpenApiDoc;
}

/** Rewrites local refs (#/components/…) to the document registered under `openapi`. */
function rebase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rebase);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `openapi${v}` : rebase(v);
  }
  return out;
}

/** Checks replies against the OpenAPI document with ajv and the document's own components. */
export class Contract {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: OpenApiDoc) {
    addFormats.default(this.ajv);
    this.ajv.addSchema({ $id: 'openapi', components: rebase(doc.components) });
  }

  /**
   * Problems of `reply` to `method path` (a template from the document) against the document: its status
   * undeclared, a content type other than JSON, a body the declared schema refuses, or a required header
   * missing. Empty when it conforms.
   */
  problems(method: string, path: string, reply: Reply): string[] {
    const op = this.doc.paths[path]?.[method.toLowerCase()];
    if (!op) return [`${method} ${path} is not in the OpenAPI document`];
    const declared = op.responses[String(reply.status)] ?? op.responses.default;
    if (!declared)
      return [
        `${method} ${path} answered ${reply.status} ${JSON.stringify(reply.body)}, a status the OpenAPI document does not declare (declared: ${Object.keys(op.responses).join(', ')})`,
      ];
    return this.check(`${method} ${path} ${reply.status}`, declared, reply);
  }

  /** Problems of `reply` against the document's reusable response `name` (components.responses). */
  componentProblems(name: string, reply: Reply): string[] {
    const declared = this.doc.components.responses?.[name];
    if (!declared) return [`components.responses.${name} is not in the OpenAPI document`];
    return this.check(`${name} ${reply.status}`, declared, reply);
  }

  private check(label: string, declared: Response, reply: Reply): string[] {
    const problems: string[] = [];
    const type = reply.headers.get('content-type') ?? '';
    if (declared.content && !type.startsWith('application/json'))
      problems.push(`${label}: content-type ${type}`);
    for (const [name, header] of Object.entries(declared.headers ?? {})) {
      if (header.required === true && !reply.headers.has(name)) problems.push(`${label}: no ${name} header`);
    }
    const schema = declared.content?.['application/json']?.schema;
    if (schema === undefined) return problems;
    let valid = this.compiled.get(label);
    if (!valid) {
      valid = this.ajv.compile(rebase(schema) as object);
      this.compiled.set(label, valid);
    }
    if (!valid(reply.body))
      problems.push(
        `${label}: body ${JSON.stringify(reply.body)} does not match the document: ${this.ajv.errorsText(valid.errors)}`,
      );
    return problems;
  }
}

/** The default client's token in routerDeps. */
export const TOKEN = 'tok-ci';

/** Fakes replacing routerDeps' defaults, which refuse to be used. */
export interface Fakes {
  questions?: Partial<QuestionsDeps>;
  calls?: Partial<CallsDeps>;
  audit?: AuditReader;
  logger?: RouterDeps['logger'];
}

const unused = (): Promise<never> => Promise.reject(new Error('not used by this test'));
const noop = (): void => undefined;

/** The router's dependencies for one client `ci` (TOKEN), every route served, over `fakes`. */
export function routerDeps(redis: RedisClient, fakes: Fakes = {}): RouterDeps {
  const shared = {
    refuseCallback: () => undefined,
    idempotency: new Idempotency(redis, (client, key) => `unused:${client}:${key}`, systemClock),
    clock: systemClock,
    ended: {
      listen: noop,
      unlisten: noop,
      subscribe: () => ({ ended: new Promise<void>(noop), cancel: noop }),
    },
  };
  return {
    clients: new Clients([{ name: 'ci', token: TOKEN }]),
    logger: fakes.logger ?? { error: noop },
    questions: {
      ...shared,
      open: unused,
      get: unused,
      end: unused,
      checkSchema: noop,
      timeoutMs: () => 60_000,
      ...fakes.questions,
    },
    calls: {
      ...shared,
      servers: ['fixture'],
      start: unused,
      admit: () => Promise.resolve(),
      get: unused,
      connected: () => Promise.resolve(true),
      ...fakes.calls,
    },
    audit: fakes.audit ?? { list: unused },
  };
}

/** A local server for `handler`, and requests to its API as the client with `token` (null: none). */
export async function listen(handler: RequestListener): Promise<{
  request(
    method: string,
    path: string,
    opts?: { token?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<Reply>;
  close(): Promise<void>;
}> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    async request(method, path, { token = TOKEN, body, headers = {} } = {}) {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
        method,
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const parsed: unknown = text ? JSON.parse(text) : {};
      const replyBody = typeof parsed === 'object' && parsed !== null ? { ...parsed } : {};
      return { status: response.status, headers: response.headers, body: replyBody };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
