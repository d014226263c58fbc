// A request whose result the bot reads as the server sent it. Every result of Client.request passes the
// negotiated era's wire codec first: on 2026-07-28 its decode parses a tools/list result with the era's whole
// ListToolsResultSchema before any result schema a caller passes, so one malformed tool (no `name`, an
// `inputSchema.type` that is not "object") fails the page however leniently the caller would read it. So the
// lenient listing (tool-listing.ts) sends its pages here: a JSON-RPC request of its own, with a string id that
// this subclass answers itself in `_onresponse` and never hands to the SDK's number-keyed dispatch, as the SDK's
// own `subscriptions/listen` does (the override seam Protocol documents: consume what you own, pass the rest
// on). The era's `_meta` envelope comes from the client's `_outboundMetaEnvelope()`, and the result is judged
// afterwards by the era's codec (`eraCodec()`), so nothing but the per-tool leniency differs from the SDK's read.
import {
  Client,
  DEFAULT_REQUEST_TIMEOUT_MSEC,
  isJSONRPCErrorResponse,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type JSONRPCRequest,
  type JSONRPCResponse,
} from '@modelcontextprotocol/client';
import type { Schedule } from '../clock.js';

/** How long a raw request may wait for its answer, and on whose timers (the hub's injected clock). */
export interface RawRequestTiming {
  schedule: Schedule;
  /** In ms; the SDK's own default per-request timeout (60 s) when absent. */
  timeoutMs?: number;
}

interface PendingRaw {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

/** Ours alone: the SDK numbers its requests and names its listens `listen:<n>`. */
const RAW_ID_PREFIX = 'elicit-relay/raw:';

export class RawResultClient extends Client {
  private readonly raw = new Map<string, PendingRaw>();
  private nextRawId = 0;

  /** The negotiated era's wire codec, which judges a raw result as the SDK would have. */
  eraCodec() {
    return this._wireCodec();
  }

  /**
   * Sends `method` and resolves with its result as it came (unchecked); rejects with the server's JSON-RPC
   * error (ProtocolError), the transport's failure, SdkError ConnectionClosed when the connection ends first, or
   * SdkError RequestTimeout after `timeoutMs` (the SDK's default per-request timeout, 60 s), which also tells the
   * server the request is cancelled. The wait runs on `schedule` (the hub's clock, whose timers keep no process
   * alive), not on a timer of its own.
   */
  requestRaw(method: string, params: Record<string, unknown>, timing: RawRequestTiming): Promise<unknown> {
    const { schedule, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MSEC } = timing;
    const transport = this.transport;
    if (transport === undefined)
      return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    const id = `${RAW_ID_PREFIX}${this.nextRawId++}`;
    const envelope = this._outboundMetaEnvelope();
    const meta = envelope === undefined ? {} : { _meta: { ...envelope } };
    const request: JSONRPCRequest = { jsonrpc: '2.0', id, method, params: { ...params, ...meta } };
    return new Promise<unknown>((resolve, reject) => {
      const done = schedule(() => {
        this.settle(id)?.reject(
          new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs }),
        );
        const cancelled = { requestId: id, reason: 'timed out' };
        this.notification({ method: 'notifications/cancelled', params: cancelled }).catch(() => undefined);
      }, timeoutMs);
      this.raw.set(id, {
        resolve: (result) => (done(), resolve(result)),
        reject: (error) => (done(), reject(error)),
      });
      transport.send(request).catch((error: unknown) => {
        this.settle(id)?.reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  protected override _onresponse(response: JSONRPCResponse): void {
    const pending = typeof response.id === 'string' ? this.settle(response.id) : undefined;
    if (pending === undefined) return super._onresponse(response);
    if (isJSONRPCErrorResponse(response)) {
      const { code, message, data } = response.error;
      pending.reject(ProtocolError.fromError(code, message, data));
    } else pending.resolve(response.result);
  }

  protected override _onclose(): void {
    const closed = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    for (const id of [...this.raw.keys()]) this.settle(id)?.reject(closed);
    super._onclose();
  }

  /** Takes `id`'s pending request out (undefined when it is not ours or already settled). */
  private settle(id: string): PendingRaw | undefined {
    const pending = this.raw.get(id);
    this.raw.delete(id);
    return pending;
  }
}
