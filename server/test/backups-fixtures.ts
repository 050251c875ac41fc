import { dockerCli, testEngine } from './helpers/engine';

/**
 * Fills a volume with `files` small files in a few folders, two larger random files (one hard
 * linked), symlinks (one dangling), odd modes and owners, and an empty folder.
 */
export function fillVolume(volume: string, files: number): void {
  const script = [
    'set -e',
    'cd /v',
    'mkdir -p empty d/sub a/b/c',
    // touch in batches (a shell loop writing each file takes minutes here); the first 200 get content.
    `seq 0 ${files - 1} | sed 's|^|d/f|' | xargs touch`,
    `for i in $(seq 0 ${Math.min(files, 200) - 1}); do echo "file $i" > d/f$i; done`,
    'dd if=/dev/urandom of=big1 bs=1M count=6 2>/dev/null',
    'dd if=/dev/urandom of=a/b/c/big2 bs=1k count=700 2>/dev/null',
    'ln -s d/f1 link1',
    'ln -s /nowhere/at/all dangling',
    'ln big1 hard1',
    'chmod 600 big1',
    'chmod 4755 d/f2',
    'chmod 700 d/sub',
    'chmod 1777 a',
    'chown 1000:1001 d/f3',
    'echo secret > .hidden',
  ].join('\n');
  dockerCli(['run', '--rm', '-v', `${volume}:/v`, testEngine().image, 'sh', '-c', script], { timeoutMs: 180_000 });
}

export function volumeCreate(name: string): void {
  dockerCli(['volume', 'create', '--label', 'berth.test=1', name]);
}
