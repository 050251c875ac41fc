import {
  CHANNEL_DESTINATION_FIELDS,
  CHANNEL_SECRETS,
  ChannelBody,
  type Channel,
  type ChannelType,
} from '@berth/contract';
import type { ChannelRow, NotificationsRepo } from '../../db/notifications-repo';
import { BlockedAddressError, ConflictError, NotFoundError, ValidationError } from '../../errors';
import { blockedAddressReason } from '../../lib/safe-fetch';
import { open, seal } from '../../lib/secret-box';

type Fields = Record<string, unknown>;

const secretNames = (type: string): readonly string[] => CHANNEL_SECRETS[type as keyof typeof CHANNEL_SECRETS] ?? [];

const MASK = '••••';

/**
 * A channel as a non-admin reads it: a URL shows its scheme and host only (a token may sit in
 * the path or query of a generic webhook) and the ntfy topic (which anyone knowing it may read) is hidden.
 */
export function maskChannel(c: Channel): Channel {
  const out = { ...c };
  if (out.url !== undefined) out.url = maskUrl(out.url);
  if (out.topic !== undefined) out.topic = MASK;
  return out;
}

function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname === '/' && !u.search && !u.hash && !u.username ? `${u.origin}/` : `${u.origin}/${MASK}`;
  } catch {
    // Not a URL we can split: nothing of it is shown.
    return MASK;
  }
}

/**
 * Notification channels: the secret fields of each type are sealed at rest (lib/secret-box.ts)
 * and never leave through a read; a read says which of them are set.
 */
export class ChannelsService {
  constructor(
    private readonly repo: NotificationsRepo,
    private readonly key: Buffer,
  ) {}

  list(): Channel[] {
    return this.repo.channels().map((r) => this.view(r));
  }

  get(id: number): Channel {
    return this.view(this.row(id));
  }

  add(body: ChannelBody): Channel {
    assertAddressAllowed(body);
    this.assertFreeName(body.name);
    const now = new Date().toISOString();
    const id = this.repo.insertChannel({ name: body.name, type: body.type, ...this.split(body) }, now);
    return this.get(id);
  }

  /**
   * Changes the fields sent; a secret field sent as null is cleared, one left out is kept, unless
   * the change sends the channel somewhere else (its URL, SMTP host or port): then the stored
   * secrets are dropped unless sent again in the same change, so "change the host, press Test"
   * cannot hand them to a new receiver.
   */
  edit(id: number, patch: Fields): Channel {
    const row = this.row(id);
    const current = this.full(row);
    const merged: Fields = { ...current };
    const moved = (CHANNEL_DESTINATION_FIELDS[row.type as ChannelType] ?? []).some(
      (f) => f in patch && patch[f] !== current[f],
    );
    if (moved) for (const k of secretNames(row.type)) if (!(k in patch)) delete merged[k];
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete merged[k];
      else merged[k] = v;
    }
    const parsed = ChannelBody.safeParse(merged);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message }));
      throw new ValidationError(
        `The channel is not valid after this change: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`,
        fields,
      );
    }
    assertAddressAllowed(parsed.data);
    if (parsed.data.name.toLowerCase() !== row.name.toLowerCase()) this.assertFreeName(parsed.data.name);
    this.repo.updateChannel(id, { name: parsed.data.name, ...this.split(parsed.data) }, new Date().toISOString());
    return this.get(id);
  }

  remove(id: number): void {
    if (!this.repo.deleteChannel(id)) throw new NotFoundError('notification channel', id);
  }

  /** The channel with its secrets opened, for sending; null when it is gone. */
  settings(id: number): { name: string; body: ChannelBody } | null {
    const row = this.repo.channel(id);
    return row ? { name: row.name, body: ChannelBody.parse(this.full(row)) } : null;
  }

  private row(id: number): ChannelRow {
    const row = this.repo.channel(id);
    if (!row) throw new NotFoundError('notification channel', id);
    return row;
  }

  private assertFreeName(name: string): void {
    if (this.repo.channelByName(name)) throw new ConflictError(`A notification channel named ${name} already exists.`);
  }

  /** Non-secret settings as JSON, secret ones sealed (null when there is none). */
  private split(body: ChannelBody): Pick<ChannelRow, 'settings' | 'sealed_secrets'> {
    const names = secretNames(body.type);
    const plain: Fields = {};
    const secret: Fields = {};
    for (const [k, v] of Object.entries(body)) {
      if (k === 'name' || k === 'type' || v === undefined) continue;
      (names.includes(k) ? secret : plain)[k] = v;
    }
    return {
      settings: JSON.stringify(plain),
      sealed_secrets: Object.keys(secret).length ? seal(this.key, JSON.stringify(secret)) : null,
    };
  }

  private secrets(row: ChannelRow): Fields {
    return row.sealed_secrets ? (JSON.parse(open(this.key, row.sealed_secrets)) as Fields) : {};
  }

  private full(row: ChannelRow): Fields {
    return { name: row.name, type: row.type, ...(JSON.parse(row.settings) as Fields), ...this.secrets(row) };
  }

  private view(row: ChannelRow): Channel {
    let set: string[];
    try {
      set = Object.keys(this.secrets(row));
    } catch {
      // Sealed under another signing key (SECRET_KEY changed): the admin must enter them again.
      set = [];
    }
    return {
      id: row.id,
      name: row.name,
      type: row.type as Channel['type'],
      ...(JSON.parse(row.settings) as Fields),
      secrets_set: set,
      created_at: row.created_at,
      updated_at: row.updated_at,
    } as Channel;
  }
}

/**
 * Refuses a link-local or metadata address written as such (names are checked again where the
 * connection is made, in lib/safe-fetch.ts and the email sender).
 */
function assertAddressAllowed(body: ChannelBody): void {
  const [field, host] = body.type === 'email' ? ['host', body.host] : ['url', new URL(body.url).hostname];
  const literal = host.replace(/^\[(.*)\]$/, '$1');
  const why = blockedAddressReason(literal, true);
  if (why && why !== 'not an address')
    throw new BlockedAddressError(`Refused ${literal}: it is ${why}.`, [{ field, message: `Not allowed: ${why}.` }]);
}
