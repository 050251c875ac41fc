import { z } from 'zod';
import { defineRoute } from '../route';
import { AppNameParams } from './app';
import { VolumeNameParams } from './volume';

/** Text files open in the editor up to this size. */
export const FILE_CONTENT_MAX_BYTES = 1024 * 1024;

/**
 * A path inside a container: absolute, no `..` segment (refused rather than resolved, so no
 * request reads outside the folder it names), no NUL.
 */
export const ContainerPath = z
  .string({ error: 'path is required.' })
  .min(1, 'path is required.')
  .max(4096, 'path is at most 4096 characters.')
  .refine((p) => p.startsWith('/'), 'path must be absolute (start with /).')
  .refine((p) => !p.includes('\0'), 'path cannot hold a NUL character.')
  .refine((p) => !p.split('/').includes('..'), 'A path with ../ is refused: name the folder itself.');

/** One file name (no slash): what an upload or a new folder is called. */
export const FileName = z
  .string()
  .min(1, 'name is required.')
  .max(255, 'name is at most 255 characters.')
  .refine((n) => !n.includes('/') && !n.includes('\0') && n !== '.' && n !== '..', 'name is one file name, no slash.');

export const FilePathQuery = z.object({ path: ContainerPath });
export const FileUploadQuery = z.object({ path: ContainerPath, name: FileName });

export const FILE_TYPES = ['file', 'directory', 'symlink', 'other'] as const;
export const FileEntry = z.object({
  name: z.string(),
  path: z.string(),
  type: z.enum(FILE_TYPES),
  size: z.number(),
  /** Permission bits as octal text, e.g. `0644`. */
  mode: z.string(),
  /** `user:group` by name when the archive names them, else by id. */
  owner: z.string(),
  modified: z.string(),
  /** Where a symlink points (as stored in it); null otherwise. */
  link_target: z.string().nullable(),
});
export type FileEntry = z.infer<typeof FileEntry>;

export const FileListing = z.object({ path: z.string(), entries: z.array(FileEntry) });
export type FileListing = z.infer<typeof FileListing>;

export const FileContent = FileEntry.extend({ content: z.string() });
export type FileContent = z.infer<typeof FileContent>;

/** Bytes of `s` in UTF-8 (the contract runs in Node and the browser alike). */
function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

export const FileContentBody = z.strictObject({
  content: z.string().refine((c) => utf8Length(c) <= FILE_CONTENT_MAX_BYTES, 'content is at most 1 MiB.'),
});
export const MkdirBody = z.strictObject({ path: ContainerPath });
export const FileDeleted = z.object({ deleted: z.string() });

/** A tar archive (application/x-tar). */
const TarFile = z.unknown().describe('application/x-tar');

type NameParams = typeof AppNameParams | typeof VolumeNameParams;

/**
 * The same seven routes for a container's files and a volume's (`what` says whose in the summaries).
 * Reads are open to viewers at the route; the service refuses a viewer unless the environment's
 * policy has viewer_files on (operators and admins always read). Writes need an operator.
 */
function fileRoutes<Params extends NameParams>(P: string, params: Params, tag: 'apps' | 'volumes', what: string) {
  return {
    list: defineRoute({
      method: 'GET',
      role: 'viewer',
      path: P,
      scope: 'environment',
      tag,
      summary: `A folder of ${what}, read through the engine's archive API; a symlink is followed inside it (viewers: when the policy's viewer_files allows)`,
      params,
      querystring: FilePathQuery,
      response: FileListing,
    }),
    download: defineRoute({
      method: 'GET',
      role: 'viewer',
      path: `${P}/download`,
      scope: 'environment',
      tag,
      summary: `A file or a folder of ${what} as a .tar (streamed; viewers: when viewer_files allows)`,
      params,
      querystring: FilePathQuery,
      response: TarFile,
    }),
    read: defineRoute({
      method: 'GET',
      role: 'viewer',
      path: `${P}/content`,
      scope: 'environment',
      tag,
      summary: `A text file of ${what} up to 1 MiB (a binary file is refused; viewers: when viewer_files allows)`,
      params,
      querystring: FilePathQuery,
      response: FileContent,
    }),
    write: defineRoute({
      method: 'PUT',
      role: 'operator',
      path: `${P}/content`,
      scope: 'environment',
      tag,
      summary: `Write a text file of ${what} (an existing one keeps its mode and owner)`,
      params,
      querystring: FilePathQuery,
      body: FileContentBody,
      response: FileContent,
    }),
    upload: defineRoute({
      method: 'POST',
      role: 'operator',
      path: `${P}/upload`,
      scope: 'environment',
      tag,
      summary: `Upload one file into the folder \`path\` of ${what} as \`name\`: the request body is the file (application/octet-stream, Content-Length required), streamed to the engine`,
      params,
      querystring: FileUploadQuery,
      response: FileEntry,
    }),
    remove: defineRoute({
      method: 'DELETE',
      role: 'operator',
      path: P,
      scope: 'environment',
      tag,
      summary: `Delete a file or a folder of ${what} with what it holds`,
      params,
      querystring: FilePathQuery,
      response: FileDeleted,
    }),
    mkdir: defineRoute({
      method: 'POST',
      role: 'operator',
      path: `${P}/mkdir`,
      scope: 'environment',
      tag,
      summary: `Make a folder in ${what} (its parent must exist)`,
      params,
      body: MkdirBody,
      response: FileEntry,
    }),
  } as const;
}

export const appFilesApi = fileRoutes(
  '/api/apps/{name}/files',
  AppNameParams,
  'apps',
  "the app's container (running or not; deleting needs it running)",
);

export const volumeFilesApi = fileRoutes(
  '/api/resources/volumes/{name}/files',
  VolumeNameParams,
  'volumes',
  'the volume (through a short-lived helper container, its mount read-only for reads)',
);
