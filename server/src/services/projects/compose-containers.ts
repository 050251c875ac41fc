import type { ProjectContainer } from '@berth/contract';
import type { Engine } from '../../docker/engine';
import { FrameDemuxer } from '../../docker/logs';
import { healthFromStatus } from '../apps/containers';
import { bareName, CONFIG_FILES_LABEL, PROJECT_LABEL, SERVICE_LABEL, WORKING_DIR_LABEL } from '../../docker/names';

export { PROJECT_LABEL, SERVICE_LABEL } from '../../docker/names';

export interface LabelledContainer extends ProjectContainer {
  project: string;
  /** Where compose ran and the files it read, as its labels say (null when a label is missing). */
  workingDir: string | null;
  configFiles: string | null;
}

/**
 * Containers that belong to compose projects, found by the compose labels (v1 and v2 name
 * containers differently, but both label them). One engine call; `project` narrows it to one.
 */
export async function listComposeContainers(engine: Engine, project?: string): Promise<LabelledContainer[]> {
  const label = project ? [`${PROJECT_LABEL}=${project}`] : [PROJECT_LABEL];
  const list = await engine.listContainers({ all: true, filters: { label } });
  return list.map((c) => ({
    id: c.Id,
    name: bareName(c.Names[0] ?? c.Id),
    project: c.Labels[PROJECT_LABEL] ?? '',
    service: c.Labels[SERVICE_LABEL] ?? '',
    state: c.State,
    status: c.Status,
    image: c.Image,
    health: healthFromStatus(c.Status),
    workingDir: c.Labels[WORKING_DIR_LABEL] ?? null,
    configFiles: c.Labels[CONFIG_FILES_LABEL] ?? null,
  }));
}

/** The last `tail` lines of a container's log (stdout and stderr, with timestamps), at most `maxBytes`. */
export async function containerLogTail(engine: Engine, id: string, tail: number, maxBytes: number): Promise<string> {
  const stream = await engine.logs(id, { follow: false, timestamps: true, tail });
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  } finally {
    stream.destroy?.();
  }
  const buf = Buffer.concat(chunks);
  // A TTY container's log is plain bytes; a non-TTY one is framed (stream byte 1 or 2, three zero bytes).
  const framed = buf.length >= 8 && buf[0]! <= 2 && buf[1] === 0 && buf[2] === 0 && buf[3] === 0;
  const text = framed
    ? Buffer.concat(new FrameDemuxer().push(buf).map((f) => f.payload)).toString('utf8')
    : buf.toString('utf8');
  return text.length > maxBytes ? text.slice(-maxBytes) : text;
}
