import type { ImageContainerConfig, ImageSummary, PullProgress } from '@berth/contract';

const tagOf = (ref: string) => ref.slice(ref.lastIndexOf(':') + 1);
const byVersion = new Intl.Collator('en', { numeric: true });

/** The newest of several tags: `latest`, else the highest version (`1.10` after `1.9`), else the last by name. */
export function newestTag(tags: readonly string[]): string | undefined {
  return [...tags].sort((a, b) => {
    const [ta, tb] = [tagOf(a), tagOf(b)];
    if ((ta === 'latest') !== (tb === 'latest')) return ta === 'latest' ? -1 : 1;
    return byVersion.compare(tb, ta) || byVersion.compare(b, a);
  })[0];
}

type Named = Pick<ImageSummary, 'RepoTags' | 'RepoDigests' | 'Id'> & { usedTags?: readonly string[] };

/**
 * Tag display: the tag a container uses, else the newest tag, else the repository of the first
 * digest, else 10 characters of the id.
 */
export function imageTag(image: Named): string {
  const tag = image.usedTags?.[0] ?? newestTag(image.RepoTags);
  if (tag) return tag;
  const digest = image.RepoDigests[0];
  if (digest) return digest.split('@')[0] ?? digest;
  return shortImageId(image.Id);
}

/** Every name the image is known by: its tags, then its digests. Search matches any of them. */
export function imageNames(image: Pick<ImageSummary, 'RepoTags' | 'RepoDigests'>): string[] {
  return [...image.RepoTags, ...image.RepoDigests];
}

/** What deleting the image removes, as the confirmation lists it. */
export function deleteImageText(image: Pick<ImageSummary, 'RepoTags' | 'RepoDigests' | 'Id'>): string {
  const tags = image.RepoTags;
  if (tags.length === 0) return `The untagged image ${shortImageId(image.Id)} will be removed from this host.`;
  return `The image ${shortImageId(image.Id)} will be removed from this host with ${tags.length === 1 ? 'its tag' : `all ${tags.length} tags`}:`;
}

/** The first 10 characters of the id after `sha256:`. */
export function shortImageId(id: string): string {
  return (id.split(':')[1] ?? id).slice(0, 10);
}

/** The image's command, shown only when the image sets one (spec: "only if it contains CMD"). */
export function imageCommand(config: ImageContainerConfig): string | null {
  return config.Cmd && config.Cmd.length > 0 ? config.Cmd.join(' ') : null;
}

export interface LayerProgress {
  id: string;
  status: string;
  current?: number;
  total?: number;
}

export interface PullState {
  /** Per-layer lines in arrival order of their first message. */
  layers: LayerProgress[];
  /** Lines without a layer id ('Pulling from…', 'Digest: …', 'Status: …'). */
  messages: string[];
  /** 0-100 over the layers that report a size, or null before any does. */
  percent: number | null;
}

export const emptyPull: PullState = { layers: [], messages: [], percent: null };

/** Folds engine progress lines into what the pull dialog shows. */
export function foldPull(state: PullState, batch: readonly PullProgress[]): PullState {
  const layers = new Map(state.layers.map((l) => [l.id, l]));
  const messages = [...state.messages];
  for (const p of batch) {
    // A layer id is hex; the first line's id is the tag being pulled, which reads better as a message.
    if (p.id && /^[0-9a-f]{12}$/.test(p.id)) {
      const prev = layers.get(p.id);
      const sized = p.total !== undefined && p.current !== undefined;
      layers.set(p.id, {
        id: p.id,
        status: p.status,
        ...(sized ? { current: p.current, total: p.total } : { current: prev?.current, total: prev?.total }),
      });
    } else if (p.status) {
      messages.push(p.id ? `${p.id}: ${p.status}` : p.status);
    }
  }
  const list = [...layers.values()];
  const sized = list.filter((l) => l.total);
  const done = (l: LayerProgress) => /complete|already exists/i.test(l.status);
  const total = sized.reduce((sum, l) => sum + (l.total ?? 0), 0);
  const current = sized.reduce(
    (sum, l) => sum + (done(l) ? (l.total ?? 0) : Math.min(l.current ?? 0, l.total ?? 0)),
    0,
  );
  const percent =
    total > 0 ? Math.round((current / total) * 100) : list.length > 0 && list.every(done) ? 100 : state.percent;
  return { layers: list, messages: messages.slice(-20), percent };
}

/** `a:1, b:2` or one per line → the build's tags. */
export function splitTags(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean);
}

/** `KEY=value` lines → build arguments (a line without `=` is skipped; the value keeps later `=`). */
export function parseBuildArgs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1);
  }
  return out;
}
