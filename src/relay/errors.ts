// Local errors: typed, with a string `code`, a `name` and a native `cause`. Never branch on message text.
export class RelayError extends Error {
  override name = 'RelayError';
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
