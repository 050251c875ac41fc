import Module, { createRequire } from 'node:module';
import type Docker from 'dockerode';

type DockerClass = typeof Docker;
type Loader = (request: string, parent: { filename?: string } | undefined, isMain: boolean) => unknown;

/**
 * Parts of dockerode that load heavy libraries at import and are used by few: docker-modem's SSH
 * agent (ssh2, for `ssh://` environments) and dockerode's BuildKit session (gRPC and protobufjs,
 * for image builds, which Berth never starts). Together ~12 MB of resident memory in a process
 * that otherwise idles at ~80 MB. Each is replaced, while dockerode loads, by a function that
 * loads the real module on its first call. Both are plain functions (`module.exports = function`),
 * so the stand-in behaves the same; if dockerode renames them, the hook matches nothing and they
 * load at once, as before.
 */
const DEFERRED: { parent: RegExp; request: string }[] = [
  { parent: /[\\/]docker-modem[\\/]lib[\\/]modem\.js$/, request: './ssh' },
  { parent: /[\\/]dockerode[\\/]lib[\\/]docker\.js$/, request: './session' },
];

let loaded: DockerClass | null = null;

/** dockerode's client class, loaded on the first engine client made, with ssh2 and gRPC deferred. */
export function dockerode(): DockerClass {
  if (loaded) return loaded;
  // Module._load is how CommonJS resolves every require(); dockerode loads synchronously, so the
  // hook sees only its own requires and is removed before anything else runs.
  const mod = Module as unknown as { _load: Loader };
  const original = mod._load;
  mod._load = function deferring(request, parent, isMain) {
    if (parent?.filename && DEFERRED.some((d) => d.request === request && d.parent.test(parent.filename!))) {
      let real: ((...args: unknown[]) => unknown) | null = null;
      return function deferred(this: unknown, ...args: unknown[]) {
        real ??= original(request, parent, false) as (...args: unknown[]) => unknown;
        return real.apply(this, args);
      };
    }
    return original.call(this, request, parent, isMain);
  };
  try {
    loaded = createRequire(import.meta.url)('dockerode') as DockerClass;
  } finally {
    mod._load = original;
  }
  return loaded;
}
