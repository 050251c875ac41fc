import type { ProjectContainer } from '@berth/contract';
import type { DockerClient } from './client';
import { engineCall } from './client';

export const PROJECT_LABEL = 'com.docker.compose.project';
export const SERVICE_LABEL = 'com.docker.compose.service';

export interface LabelledContainer extends ProjectContainer {
  project: string;
}

/**
 * Containers that belong to compose projects, found by the compose labels (v1 and v2 name
 * containers differently, but both label them). One engine call; `project` narrows it to one.
 */
export async function listComposeContainers(docker: DockerClient, project?: string): Promise<LabelledContainer[]> {
  const label = project ? [`${PROJECT_LABEL}=${project}`] : [PROJECT_LABEL];
  const list = await engineCall(() => docker.listContainers({ all: true, filters: { label } }));
  return list.map((c) => ({
    id: c.Id,
    name: (c.Names[0] ?? c.Id).replace(/^\//, ''),
    project: c.Labels[PROJECT_LABEL] ?? '',
    service: c.Labels[SERVICE_LABEL] ?? '',
    state: c.State,
    status: c.Status,
    image: c.Image,
  }));
}

/** Splits the engine's multiplexed log frames (non-TTY containers) into plain text; TTY logs pass through. */
function demuxLogs(buf: Buffer): string {
  const framed = buf.length >= 8 && buf[0]! <= 2 && buf[1] === 0 && buf[2] === 0 && buf[3] === 0;
  if (!framed) return buf.toString('utf8');
  const parts: Buffer[] = [];
  let at = 0;
  while (at + 8 <= buf.length) {
    const size = buf.readUInt32BE(at + 4);
    parts.push(buf.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The last `tail` lines of a container's log (stdout and stderr, with timestamps), at most `maxBytes`. */
export async function containerLogTail(docker: DockerClient, id: string, tail: number, maxBytes: number): Promise<string> {
  const raw = await engineCall(() => docker.getContainer(id).logs({ stdout: true, stderr: true, timestamps: true, tail, follow: false }));
  const text = demuxLogs(Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw)));
  return text.length > maxBytes ? text.slice(-maxBytes) : text;
}
