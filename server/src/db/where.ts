/** A WHERE clause built from optional filters: a condition counts only when its value is given. */
export class Where {
  private readonly parts: string[] = [];
  readonly args: (string | number)[] = [];

  /** Adds `sql` (with one `?`) when `value` is defined. */
  add(sql: string, value: string | number | undefined): this {
    if (value === undefined) return this;
    this.parts.push(sql);
    this.args.push(value);
    return this;
  }

  toString(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}
