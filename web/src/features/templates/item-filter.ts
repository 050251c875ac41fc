import type { TemplateItem } from '@berth/contract';

const byTitle = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Items whose title contains the search text (case-insensitive, taken literally), sorted by title. */
export function filterItems<T extends Pick<TemplateItem, 'title'>>(items: readonly T[], search: string): T[] {
  const needle = search.trim().toLowerCase();
  return items.filter((i) => i.title.toLowerCase().includes(needle)).sort((a, b) => byTitle.compare(a.title, b.title));
}
