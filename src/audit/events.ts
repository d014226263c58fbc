// Pure: the audit event of each thing that happens, with the answer kept only as `audit.content` allows.
import type { Question } from '../relay/types.js';
import type { AuditContentMode, AuditEvent, AuditSource } from './types.js';

const rfc3339 = (ms: number): string => new Date(ms).toISOString();

/**
 * The who of an event: server and tool and person for MCP, the client and the person (or channel) asked for the
 * API. All but `channel` are what list() filters on.
 */
function sourceFields(
  source: AuditSource,
): Pick<AuditEvent, 'server' | 'tool' | 'user' | 'channel' | 'client'> {
  if (source.kind === 'api') {
    const { client, user, channel } = source;
    return { client, ...(user ? { user } : {}), ...(channel ? { channel } : {}) };
  }
  return { server: source.server, user: source.user, ...(source.tool ? { tool: source.tool } : {}) };
}

export function questionCreated(question: Question, source: AuditSource, at: number): AuditEvent {
  return {
    type: 'question.created',
    at: rfc3339(at),
    question: question.id,
    ...sourceFields(source),
    createdAt: rfc3339(question.createdAt),
  };
}

export function questionEnded(
  question: Question,
  source: AuditSource,
  content: AuditContentMode,
  at: number,
): AuditEvent {
  const outcome = question.outcome ?? { action: 'cancel' as const };
  const answer = outcome.action === 'accept' ? outcome.content : undefined;
  return {
    type: 'question.ended',
    at: rfc3339(at),
    question: question.id,
    ...sourceFields(source),
    action: outcome.action,
    ...(question.reason ? { reason: question.reason } : {}),
    ...(question.endedBy ? { answeredBy: question.endedBy } : {}),
    createdAt: rfc3339(question.createdAt),
    endedAt: rfc3339(question.endedAt ?? at),
    ...(answer && content === 'fields' ? { fields: Object.keys(answer) } : {}),
    ...(answer && content === 'full' ? { content: answer } : {}),
  };
}

/** A call on a person's behalf (API) or run by a person (/mcp run). */
export interface AuditedCall {
  id: string;
  server: string;
  tool: string;
  /** Epoch ms. */
  createdAt: number;
}

export function callCreated(call: AuditedCall, source: AuditSource, at: number): AuditEvent {
  return {
    type: 'call.created',
    at: rfc3339(at),
    call: call.id,
    ...sourceFields(source),
    server: call.server,
    tool: call.tool,
    createdAt: rfc3339(call.createdAt),
  };
}

export function callEnded(
  call: AuditedCall & { status: 'completed' | 'failed'; endedAt: number },
  source: AuditSource,
  at: number,
): AuditEvent {
  return {
    ...callCreated(call, source, at),
    type: 'call.ended',
    status: call.status,
    endedAt: rfc3339(call.endedAt),
  };
}

/** What the webhook deliverer reports when it gives up (src/webhooks GaveUp). */
export interface GivenUpDelivery {
  deliveryId: string;
  type: string;
  resourceId: string;
  url: string;
  client: string;
  attempts: number;
  code: string;
  reason: string;
}

export function webhookGaveUp(delivery: GivenUpDelivery, at: number): AuditEvent {
  const { deliveryId, url, attempts, code, reason } = delivery;
  return {
    type: 'webhook.gave_up',
    at: rfc3339(at),
    ...(delivery.type === 'call.ended' ? { call: delivery.resourceId } : { question: delivery.resourceId }),
    client: delivery.client,
    webhook: { deliveryId, url, attempts, code, reason },
  };
}

/**
 * The event as its log line carries it: a webhook's callback URL reduced to its origin (scheme, host, port), as
 * src/webhooks logs it, since its path or query often carries the receiver's secret. The stored event keeps it
 * whole for the client that gave it.
 */
export function forLog(event: AuditEvent): AuditEvent {
  if (event.webhook === undefined) return event;
  const { url } = event.webhook;
  return {
    ...event,
    webhook: { ...event.webhook, url: URL.canParse(url) ? new URL(url).origin : '(not a URL)' },
  };
}
