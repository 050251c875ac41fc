declare global {
  interface Window {
    /** Defined by public/boot.js, loaded before the app: reloads the page unless it did so in the last 30 s. */
    berthReloadOnce?: () => boolean;
  }
}

/**
 * A code chunk that cannot be fetched (a connection dropped on a busy machine, or a Berth update
 * that replaced the hashed files) leaves a page that never finishes loading: load the page again,
 * once (the guard against loops lives in public/boot.js, which also covers the entry's own files).
 * Returns whether it did.
 */
export function reloadForMissingChunk(): boolean {
  return window.berthReloadOnce?.() ?? false;
}

/** An import() that reloads the page once when its chunk cannot be fetched (for React.lazy and route loaders). */
export function importOrReload<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    load().catch((err: unknown) => {
      // The reload replaces the page; until it does, the pending import never settles, so nothing shows an error meanwhile.
      if (reloadForMissingChunk()) return new Promise<T>(() => undefined);
      throw err;
    });
}
