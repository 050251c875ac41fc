// Loaded before the app's own module script (a file, since the page's policy allows no inline script).
// When one of the app's files cannot be fetched (a connection dropped, the host's network changing
// mid-load, a Berth update that replaced the hashed files), a failed module of the entry's graph
// leaves the page blank for good: nothing of the app runs to notice. Load the page again, at most
// once per 30 s so a server that keeps failing never loops it. The app's lazy imports use the same
// guard through window.berthReloadOnce (web/src/lib/chunk-reload.ts).
(function () {
  var KEY = 'chunk-reload-at';
  var QUIET_MS = 30000;
  function reloadOnce() {
    try {
      var last = Number(sessionStorage.getItem(KEY) || 0);
      if (Date.now() - last < QUIET_MS) return false;
      sessionStorage.setItem(KEY, String(Date.now()));
    } catch (e) {
      // Storage blocked: without a guard against loops, do not reload.
      return false;
    }
    window.location.reload();
    return true;
  }
  window.berthReloadOnce = reloadOnce;
  window.addEventListener(
    'error',
    function (event) {
      var el = event.target;
      if (!el || (el.tagName !== 'SCRIPT' && el.tagName !== 'LINK')) return;
      var url = el.src || el.href || '';
      if (url.indexOf(window.location.origin + '/assets/') === 0) reloadOnce();
    },
    true,
  );
})();
