import { CHANNEL_SECRETS, type Channel, type ChannelType } from '@berth/contract';

export interface FieldDef {
  key: string;
  label: string;
  kind?: 'number' | 'secret' | 'tls';
  required?: boolean;
  placeholder?: string;
}

/** The form fields of each channel type, in order; secrets are write-only. */
export const CHANNEL_FIELDS: Record<ChannelType, FieldDef[]> = {
  webhook: [
    { key: 'url', label: 'URL', required: true, placeholder: 'https://example.com/hook' },
    { key: 'header_name', label: 'Secret header name', placeholder: 'X-Token' },
    { key: 'header_value', label: 'Secret header value', kind: 'secret' },
    { key: 'signing_secret', label: 'HMAC signing secret (X-Berth-Signature)', kind: 'secret' },
  ],
  ntfy: [
    { key: 'url', label: 'Server URL', required: true, placeholder: 'https://ntfy.sh' },
    { key: 'topic', label: 'Topic', required: true },
    { key: 'token', label: 'Access token', kind: 'secret' },
  ],
  email: [
    { key: 'host', label: 'SMTP host', required: true },
    { key: 'port', label: 'Port', kind: 'number', required: true },
    { key: 'tls', label: 'TLS', kind: 'tls' },
    { key: 'user', label: 'User' },
    { key: 'password', label: 'Password', kind: 'secret' },
    { key: 'from', label: 'From', required: true, placeholder: 'berth@example.com' },
    { key: 'to', label: 'To (comma list)', required: true },
  ],
  discord: [{ key: 'url', label: 'Discord webhook URL', kind: 'secret', required: true }],
  slack: [{ key: 'url', label: 'Slack webhook URL', kind: 'secret', required: true }],
};

export type FormValues = Record<string, string>;

/** The form's starting values: a channel's non-secret fields (secrets stay empty: "keep"). */
export function initialValues(channel: Channel | null, type: ChannelType): FormValues {
  const values: FormValues = { name: channel?.name ?? '', port: '587', tls: 'starttls' };
  for (const f of CHANNEL_FIELDS[type]) {
    const v = channel?.[f.key as keyof Channel];
    if (f.kind !== 'secret' && (typeof v === 'string' || typeof v === 'number')) values[f.key] = String(v);
  }
  return values;
}

/**
 * The body to send: empty optional fields are left out; when editing, an empty secret field
 * keeps the stored secret (left out), and `clear` lists the secrets to remove (sent as null).
 */
export function toBody(
  type: ChannelType,
  values: FormValues,
  editing: boolean,
  clear: readonly string[] = [],
): Record<string, unknown> {
  const body: Record<string, unknown> = { name: values.name?.trim() ?? '' };
  if (!editing) body.type = type;
  const secrets: readonly string[] = CHANNEL_SECRETS[type];
  for (const f of CHANNEL_FIELDS[type]) {
    const raw = (values[f.key] ?? '').trim();
    if (secrets.includes(f.key) && clear.includes(f.key)) body[f.key] = null;
    else if (raw === '') continue;
    else body[f.key] = f.kind === 'number' ? Number(raw) : raw;
  }
  return body;
}
