import { createHash, type Hash } from 'node:crypto';
import type { TarHeader } from '../files/tar';

/** What a tree holds, as a backup's manifest records it. */
export interface TreeSummary {
  /** Every entry below the root (files, folders, symlinks, links, others). */
  entries: number;
  /** Regular files only. */
  files: number;
  /** Bytes of file data. */
  bytes: number;
  /** sha256 over every entry's path, type, mode, owner, link target and data (sorted by path). */
  sha256: string;
}

/**
 * The checksum of a file tree as tar entries describe it, independent of the order they come in:
 * two trees with the same paths, types, modes, owners, link targets and file bytes hash the same,
 * whatever their times. A restored volume read back through the engine must hash as its backup did.
 */
export class TreeHasher {
  private readonly lines: string[] = [];
  private entries = 0;
  private files = 0;
  private bytes = 0;

  /**
   * Notes one entry (`relative` to the tree's root, '' for the root itself; `linkTarget` a hard
   * link's target relative to it too) and answers a hash to
   * feed with the entry's data (null when it has none), closed by `done`.
   */
  add(h: TarHeader, relative: string, linkTarget?: string): { data: Hash | null; done: () => void } {
    const type = h.type ?? 'file';
    const mode = ((h.mode ?? 0) & 0o7777).toString(8);
    const owner = `${h.uid ?? 0}:${h.gid ?? 0}`;
    // A hard link's target is a path in the tree: the caller gives it relative to the root.
    const link = type === 'symlink' ? (h.linkname ?? '') : type === 'link' ? (linkTarget ?? h.linkname ?? '') : '';
    if (relative !== '') this.entries += 1;
    const isFile = type === 'file' || type === 'contiguous-file';
    if (isFile) {
      this.files += 1;
      this.bytes += h.size ?? 0;
    }
    const head = [relative, type, mode, owner, link].join('\0');
    if (!isFile) {
      this.lines.push(head);
      return { data: null, done: () => undefined };
    }
    const data = createHash('sha256');
    return { data, done: () => this.lines.push(`${head}\0${data.digest('hex')}`) };
  }

  summary(): TreeSummary {
    const sorted = [...this.lines].sort();
    const all = createHash('sha256');
    for (const line of sorted) all.update(line).update('\n');
    return { entries: this.entries, files: this.files, bytes: this.bytes, sha256: all.digest('hex') };
  }
}
