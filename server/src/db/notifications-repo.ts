import type { Delivery, NotifyEvent, Rule } from '@berth/contract';
import type { Db } from './database';

export interface ChannelRow {
  id: number;
  name: string;
  type: string;
  /** JSON of the non-secret fields. */
  settings: string;
  /** Sealed JSON of the secret fields, or null when none is set. */
  sealed_secrets: string | null;
  created_at: string;
  updated_at: string;
}

interface RuleRow {
  id: number;
  event: NotifyEvent;
  channels: string;
  scope: string;
  quiet_minutes: number;
  restarts: number;
  within_minutes: number;
  threshold: number | null;
  for_minutes: number;
  basis: Rule['of'];
  created_at: string;
  updated_at: string;
}

interface DeliveryRow extends Omit<Delivery, 'time'> {
  time: number;
}

export type RuleData = Omit<Rule, 'id' | 'created_at' | 'updated_at'>;

const toRule = ({ basis, ...r }: RuleRow): Rule => ({
  ...r,
  of: basis,
  channels: JSON.parse(r.channels) as number[],
  scope: JSON.parse(r.scope) as Rule['scope'],
});
const ruleArgs = (d: RuleData) => [
  d.event,
  JSON.stringify(d.channels),
  JSON.stringify(d.scope),
  d.quiet_minutes,
  d.restarts,
  d.within_minutes,
  d.threshold,
  d.for_minutes,
  d.of,
];

/** Notification channels, rules and deliveries (migration 6). */
export class NotificationsRepo {
  constructor(private readonly db: Db) {}

  channels(): ChannelRow[] {
    return this.db.prepare('SELECT * FROM notification_channels ORDER BY id').all() as ChannelRow[];
  }

  channel(id: number): ChannelRow | undefined {
    return this.db.prepare('SELECT * FROM notification_channels WHERE id = ?').get(id) as ChannelRow | undefined;
  }

  channelByName(name: string): ChannelRow | undefined {
    return this.db.prepare('SELECT * FROM notification_channels WHERE name = ?').get(name) as ChannelRow | undefined;
  }

  insertChannel(c: Pick<ChannelRow, 'name' | 'type' | 'settings' | 'sealed_secrets'>, now: string): number {
    return this.db
      .prepare(
        'INSERT INTO notification_channels (name, type, settings, sealed_secrets, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
      )
      .pluck()
      .get(c.name, c.type, c.settings, c.sealed_secrets, now, now) as number;
  }

  updateChannel(id: number, c: Pick<ChannelRow, 'name' | 'settings' | 'sealed_secrets'>, now: string): void {
    this.db
      .prepare(
        'UPDATE notification_channels SET name = ?, settings = ?, sealed_secrets = ?, updated_at = ? WHERE id = ?',
      )
      .run(c.name, c.settings, c.sealed_secrets, now, id);
  }

  /** Removes the channel and takes it out of every rule (a rule left with none is removed too). */
  deleteChannel(id: number): boolean {
    return this.db.transaction(() => {
      const gone = this.db.prepare('DELETE FROM notification_channels WHERE id = ?').run(id).changes > 0;
      for (const rule of this.rules()) {
        if (!rule.channels.includes(id)) continue;
        const rest = rule.channels.filter((c) => c !== id);
        if (rest.length) this.updateRule(rule.id, { ...rule, channels: rest }, new Date().toISOString());
        else this.deleteRule(rule.id);
      }
      return gone;
    })();
  }

  rules(): Rule[] {
    return (this.db.prepare('SELECT * FROM notification_rules ORDER BY id').all() as RuleRow[]).map(toRule);
  }

  rule(id: number): Rule | undefined {
    const row = this.db.prepare('SELECT * FROM notification_rules WHERE id = ?').get(id) as RuleRow | undefined;
    return row && toRule(row);
  }

  insertRule(d: RuleData, now: string): number {
    return this.db
      .prepare(
        'INSERT INTO notification_rules (event, channels, scope, quiet_minutes, restarts, within_minutes, threshold, for_minutes, basis, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
      )
      .pluck()
      .get(...ruleArgs(d), now, now) as number;
  }

  updateRule(id: number, d: RuleData, now: string): void {
    this.db
      .prepare(
        'UPDATE notification_rules SET event = ?, channels = ?, scope = ?, quiet_minutes = ?, restarts = ?, within_minutes = ?, threshold = ?, for_minutes = ?, basis = ?, updated_at = ? WHERE id = ?',
      )
      .run(...ruleArgs(d), now, id);
  }

  deleteRule(id: number): boolean {
    return this.db.prepare('DELETE FROM notification_rules WHERE id = ?').run(id).changes > 0;
  }

  insertDelivery(d: Pick<Delivery, 'channel_id' | 'channel_name' | 'event' | 'title'>, now: number): number {
    return this.db
      .prepare(
        "INSERT INTO notification_deliveries (time, channel_id, channel_name, event, title, status, attempts, error, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, NULL, ?) RETURNING id",
      )
      .pluck()
      .get(now, d.channel_id, d.channel_name, d.event, d.title, now) as number;
  }

  updateDelivery(id: number, d: Pick<Delivery, 'status' | 'attempts' | 'error'>, now: number): void {
    this.db
      .prepare('UPDATE notification_deliveries SET status = ?, attempts = ?, error = ?, updated_at = ? WHERE id = ?')
      .run(d.status, d.attempts, d.error, now, id);
  }

  delivery(id: number): Delivery | undefined {
    const row = this.db
      .prepare(
        'SELECT id, time, channel_id, channel_name, event, title, status, attempts, error FROM notification_deliveries WHERE id = ?',
      )
      .get(id) as DeliveryRow | undefined;
    return row && { ...row, time: new Date(row.time).toISOString() };
  }

  deliveries(limit: number): Delivery[] {
    const rows = this.db
      .prepare(
        'SELECT id, time, channel_id, channel_name, event, title, status, attempts, error FROM notification_deliveries ORDER BY id DESC LIMIT ?',
      )
      .all(limit) as DeliveryRow[];
    return rows.map((r) => ({ ...r, time: new Date(r.time).toISOString() }));
  }

  pruneDeliveries(before: number): void {
    this.db.prepare('DELETE FROM notification_deliveries WHERE time < ?').run(before);
  }
}
