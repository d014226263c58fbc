// A Response whose whole body was read before it was made. Handing the bytes to Response's constructor builds a
// web stream around them (undici's extractBody: 16-30 us of CPU per response on the 2-core machine, more than
// the rest of a small call's client side), which the callers then read straight back with text() or json(). So
// the body stays the bytes and is read from them; a Response around them is made only for a caller that asks
// for `body` (the stream) or formData(), and reads after that go through it. The reading members are set on each
// instance (Object.defineProperties): the DOM typings declare them as properties, which a subclass cannot
// override with methods.

export class BufferedResponse extends Response {
  /** `buffered`: the whole body, for a caller that looks at it without reading the Response. */
  constructor(
    readonly buffered: Buffer,
    init: ResponseInit,
  ) {
    super(null, init);
    const body = new BufferedBody(buffered, init);
    const decoded = (bytes: Buffer): string => new TextDecoder().decode(bytes);
    const member = (value: unknown): PropertyDescriptor => ({ value, configurable: true, writable: true });
    Object.defineProperties(this, {
      body: { get: () => body.whole().body, configurable: true },
      bodyUsed: { get: () => body.used(), configurable: true },
      text: member(() => body.read(decoded, (r) => r.text())),
      json: member(() =>
        body.read<unknown>(
          (bytes) => JSON.parse(decoded(bytes)),
          (r) => r.json(),
        ),
      ),
      arrayBuffer: member(() =>
        body.read(
          (bytes) => new Uint8Array(bytes).buffer,
          (r) => r.arrayBuffer(),
        ),
      ),
      bytes: member(() =>
        body.read(
          (bytes) => new Uint8Array(bytes),
          async (r) => new Uint8Array(await r.arrayBuffer()),
        ),
      ),
      blob: member(() =>
        body.read(
          (bytes) => new Blob([bytes], { type: this.headers.get('content-type') ?? '' }),
          (r) => r.blob(),
        ),
      ),
      formData: member(() => body.whole().formData()),
      clone: member(() => this.copy(body)),
    });
  }

  /** clone(): before the body is read, the same bytes again; once its stream was taken, a tee of it. */
  private copy(body: BufferedBody): Response {
    if (body.used()) throw new TypeError('Response.clone: Body has already been consumed.');
    const copy = body.streamed?.clone() ?? new BufferedResponse(this.buffered, body.init);
    Object.defineProperty(copy, 'url', { value: this.url });
    return copy;
  }
}

/** One body's state: read straight from its bytes, or through a Response of them once its stream was asked for. */
class BufferedBody {
  private readDirectly = false;
  /** The Response the body's stream came from, once a caller asked for `body` or formData(). */
  streamed: Response | undefined;

  constructor(
    private readonly bytes: Buffer,
    readonly init: ResponseInit,
  ) {}

  used(): boolean {
    return this.readDirectly || (this.streamed?.bodyUsed ?? false);
  }

  /** The bytes as a Response of their own; after a direct read, one whose stream is read already. */
  whole(): Response {
    if (this.streamed !== undefined) return this.streamed;
    this.streamed = new Response(this.bytes, this.init);
    if (this.readDirectly) void this.streamed.arrayBuffer();
    return this.streamed;
  }

  /** One read of the whole body, refused (as fetch refuses it) once the body was read. */
  read<T>(direct: (bytes: Buffer) => T, via: (response: Response) => Promise<T>): Promise<T> {
    if (this.streamed !== undefined) return via(this.streamed);
    if (this.readDirectly)
      return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    this.readDirectly = true;
    return Promise.resolve().then(() => direct(this.bytes));
  }
}
