// Secrets at rest: AES-256-GCM (node:crypto) with a random 96-bit nonce per value, the key from
// ELICIT_RELAY_TOKEN_KEY. A sealed value is "v1.<key id>.<nonce>.<ciphertext+tag>" (base64url), where the key
// id (first 8 hex digits of SHA-256 of the key) says which key sealed it, so that during a rotation values
// sealed with ELICIT_RELAY_TOKEN_KEY_PREVIOUS still open and are sealed again with the new key on the next write.
// The `context` (what the value is for, e.g. the Redis key) is bound as additional data: a value copied to
// another person's key does not open.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SealError extends Error {
  override name = 'SealError';
  constructor(
    readonly code: 'unknown_key' | 'tampered' | 'malformed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class Sealer {
  private readonly keys: Map<string, Buffer>;
  private readonly currentId: string;

  /** `key` seals and opens; `previous` (during a rotation) only opens. Each is 32 bytes. */
  constructor(key: Buffer, previous?: Buffer) {
    this.currentId = keyId(key);
    this.keys = new Map([[this.currentId, key]]);
    if (previous !== undefined) this.keys.set(keyId(previous), previous);
  }

  seal(plain: string, context: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keyFor(this.currentId), nonce);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return ['v1', this.currentId, nonce.toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string {
    const [version, id, nonce, body] = sealed.split('.');
    if (version !== 'v1' || id === undefined || nonce === undefined || body === undefined)
      throw new SealError('malformed', 'not a sealed value');
    const bytes = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.keyFor(id), Buffer.from(nonce, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch (cause) {
      throw new SealError('tampered', 'the sealed value does not open with its key and context', { cause });
    }
  }

  /** True when `sealed` was sealed with the previous key (so the next write re-seals it). */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.currentId;
  }

  private keyFor(id: string): Buffer {
    const key = this.keys.get(id);
    if (key === undefined)
      throw new SealError(
        'unknown_key',
        `sealed with key ${id}, which is neither ELICIT_RELAY_TOKEN_KEY nor _PREVIOUS`,
      );
    return key;
  }
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}
