// How an installation is kept in Redis (installations.ts reads and writes through here). With
// ELICIT_RELAY_TOKEN_KEY and ELICIT_RELAY_SEAL_INSTALLATIONS=true set, each record is sealed whole (bot, user and
// refresh tokens, the incoming webhook URL) by the Sealer that seals MCP sign-in tokens (AES-256-GCM, bound to the
// record's Redis key; src/mcp/auth/sealed.ts), as {"installedAt": <epoch ms>, "sealed": "v1.…"}: the install time
// stays readable beside it for the departure's delete script, which compares it in Redis. With the key alone,
// sealed records open and the records written are plain.
//
// The same rotation rules as the sign-in tokens: a record sealed with ELICIT_RELAY_TOKEN_KEY_PREVIOUS opens, and
// while writes are sealed is sealed with the new key when read (an installation without token rotation may never
// be written again, so waiting for a write would keep _PREVIOUS needed for ever). A plain JSON record (written
// before the key was set, or by a replica without it) reads as ever and, while writes are sealed, is sealed when
// next written (a token refresh, a reinstall): not on read, so that a replica still without the key during a
// rolling deploy keeps reading it. A record no configured key opens is no installation: its workspace reads as
// not installed (Bolt acknowledges its requests and runs no listener), with a warning naming its Redis key; it is
// kept, so setting the key that sealed it again brings the workspace back, and a reinstall replaces it.
import type { Installation } from '@slack/bolt';
import { SealError, type Sealer } from '../../mcp/auth/sealed.js';
import { StoreError } from '../../redis/index.js';

type AnyInstallation = Installation<'v1' | 'v2', boolean>;

/** An installation as stored: with when it was installed (epoch ms), which departures compare. */
export type StoredInstallation = AnyInstallation & { installedAt: number };

/** What a stored record reads as, and whether it should be sealed again with the current key. */
export interface ReadInstallation {
  installation: AnyInstallation;
  reseal: boolean;
}

/** Told when a sealed record no configured key opens is read (its Redis key and why; never the record). */
export type OnUnopenable = (key: string, code: SealError['code']) => void;

export class InstallationRecords {
  /** The record text last warned about per Redis key: each unopenable record is warned about once per replica. */
  private readonly warned = new Map<string, string>();

  /**
   * `sealer`: ELICIT_RELAY_TOKEN_KEY's (with _PREVIOUS), which opens sealed records; `sealWrites`
   * (ELICIT_RELAY_SEAL_INSTALLATIONS) also seals the records written. Without it records are written plain: a
   * replica of a release that cannot open sealed ones may still share the Redis, or take over after a rollback.
   */
  constructor(
    private readonly sealer?: Sealer,
    private readonly onUnopenable: OnUnopenable = () => {},
    private readonly sealWrites = false,
  ) {}

  /** The text to keep at `key`: sealed when writes are sealed, else plain JSON. */
  write(installation: StoredInstallation, key: string): string {
    if (this.sealer === undefined || !this.sealWrites) return JSON.stringify(installation);
    const sealed = this.sealer.seal(JSON.stringify(installation), key);
    return JSON.stringify({ installedAt: installation.installedAt, sealed });
  }

  /** The installation kept at `key` as `text`; StoreError not_installed when no configured key opens it. */
  read(text: string, key: string): ReadInstallation {
    const record: unknown = JSON.parse(text);
    if (!isSealed(record)) return { installation: record as AnyInstallation, reseal: false };
    const { sealed } = record;
    try {
      if (this.sealer === undefined) throw new SealError('unknown_key', 'ELICIT_RELAY_TOKEN_KEY is not set');
      const installation = JSON.parse(this.sealer.open(sealed, key)) as AnyInstallation;
      return { installation, reseal: this.sealWrites && this.sealer.isStale(sealed) };
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      this.unopenable(key, text, error.code);
      throw new StoreError('not_installed', `the installation at ${key} opens with no configured key`);
    }
  }

  private unopenable(key: string, text: string, code: SealError['code']): void {
    if (this.warned.get(key) === text) return;
    this.warned.set(key, text);
    this.onUnopenable(key, code);
  }
}

function isSealed(record: unknown): record is { sealed: string } {
  return (
    typeof record === 'object' && record !== null && 'sealed' in record && typeof record.sealed === 'string'
  );
}
