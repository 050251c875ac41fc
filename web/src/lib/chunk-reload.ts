/** Session storage key of the last reload made for a chunk that could not be fetched. */
const KEY = 'chunk-reload-at';
/** One reload per this long at most, so a server that keeps failing never loops the page. */
const QUIET_MS = 30_000;

/**
 * A code chunk that cannot be fetched (a connection dropped on a busy machine, or a Berth update
 * that replaced the hashed files) leaves a page that never finishes loading: load the page again,
 * once. Returns whether it did.
 */
export function reloadForMissingChunk(): boolean {
  try {
    const last = Number(sessionStorage.getItem(KEY) ?? 0);
    if (Date.now() - last < QUIET_MS) return false;
    sessionStorage.setItem(KEY, String(Date.now()));
  } catch {
    // Storage blocked: without a guard against loops, do not reload.
    return false;
  }
  window.location.reload();
  return true;
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
