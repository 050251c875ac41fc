import type { ProjectContainer } from '@berth/contract';
import type { DockerClient } from './client';
import { FrameDemuxer } from './logs';
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

/** The last `tail` lines of a container's log (stdout and stderr, with timestamps), at most `maxBytes`. */
export async function containerLogTail(docker: DockerClient, id: string, tail: number, maxBytes: number): Promise<string> {
  const raw = await engineCall(() => docker.getContainer(id).logs({ stdout: true, stderr: true, timestamps: true, tail, follow: false }));
  const buf = Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw));
  // A TTY container's log is plain bytes; a non-TTY one is framed (stream byte 1 or 2, three zero bytes).
  const framed = buf.length >= 8 && buf[0]! <= 2 && buf[1] === 0 && buf[2] === 0 && buf[3] === 0;
  const text = framed ? Buffer.concat(new FrameDemuxer().push(buf).map((f) => f.payload)).toString('utf8') : buf.toString('utf8');
  return text.length > maxBytes ? text.slice(-maxBytes) : text;
}
