// A Response whose whole body was read before it was made. Handing the bytes to Response's constructor builds a
// web stream around them (undici's extractBody: 16-30 us of CPU per response on the 2-core machine, more than
// the rest of a small call's client side), which the callers then read straight back with text() or json(). So
// the body stays the bytes and is read from them; a Response around them is made only for a caller that asks
// for `body` (the stream) or formData(), and reads after that go through it. The reading methods are set on each
// instance (Object.defineProperties): the DOM typings declare them as properties, which a subclass cannot
// override with methods.

/** What fetch rejects a second read of one body with. */
const usedBody = (): TypeError => new TypeError('Body is unusable: Body has already been read');

export class BufferedResponse extends Response {
  /** `buffered`: the whole body, for a caller that looks at it without reading the Response. */
  constructor(
    readonly buffered: Buffer,
    init: ResponseInit,
  ) {
    super(null, init);
    Object.defineProperties(this, bodyReadFrom(buffered, init, this));
  }
}

/** Body's members for `response`, read from `buffered` until a stream of it is asked for. */
function bodyReadFrom(buffered: Buffer, init: ResponseInit, response: Response): PropertyDescriptorMap {
  let used = false;
  let whole: Response | undefined;
  /** The bytes as a Response of their own; after a direct read, one whose stream is read already. */
  const asResponse = (): Response => {
    if (whole !== undefined) return whole;
    whole = new Response(buffered, init);
    if (used) void whole.arrayBuffer();
    return whole;
  };
  const read =
    <T>(direct: (bytes: Buffer) => T, via: (r: Response) => Promise<T>) =>
    (): Promise<T> => {
      if (whole !== undefined) return via(whole);
      if (used) return Promise.reject(usedBody());
      used = true;
      return Promise.resolve().then(() => direct(buffered));
    };
  const decoded = (bytes: Buffer): string => new TextDecoder().decode(bytes);
  const member = (value: unknown): PropertyDescriptor => ({ value, configurable: true, writable: true });
  return {
    body: { get: () => asResponse().body, configurable: true },
    bodyUsed: { get: () => used || (whole?.bodyUsed ?? false), configurable: true },
    text: member(read(decoded, (r) => r.text())),
    json: member(
      read(
        (bytes) => JSON.parse(decoded(bytes)) as unknown,
        (r) => r.json(),
      ),
    ),
    arrayBuffer: member(
      read(
        (bytes) => new Uint8Array(bytes).buffer,
        (r) => r.arrayBuffer(),
      ),
    ),
    bytes: member(
      read(
        (bytes) => new Uint8Array(bytes),
        (r) => r.arrayBuffer().then((b) => new Uint8Array(b)),
      ),
    ),
    blob: member(
      read(
        (bytes) => new Blob([bytes], { type: response.headers.get('content-type') ?? '' }),
        (r) => r.blob(),
      ),
    ),
    formData: member(() => asResponse().formData()),
    clone: member((): Response => {
      if (used || whole?.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
      const copy = whole === undefined ? new BufferedResponse(buffered, init) : whole.clone();
      Object.defineProperty(copy, 'url', { value: response.url });
      return copy;
    }),
  };
}
