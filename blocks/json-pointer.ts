// JSON Pointer reference tokens (RFC 6901 §3, §4): in a token, `~` is written `~0` and `/` is written `~1`.
// Pure.

/** A property name as a JSON Pointer token. */
export function pointerToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A JSON Pointer token as the property name it stands for. */
export function pointerName(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
