import { z } from 'zod';
import { defineRoute } from '../route';
import { AppNameParams } from './app';

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

const P = '/api/apps/{name}/files';
export const appFilesApi = {
  list: defineRoute({
    method: 'GET',
    role: 'operator',
    path: P,
    scope: 'environment',
    tag: 'apps',
    summary: "A folder of the container (running or not), read through the engine's archive API; a symlink is followed",
    params: AppNameParams,
    querystring: FilePathQuery,
    response: FileListing,
  }),
  download: defineRoute({
    method: 'GET',
    role: 'operator',
    path: `${P}/download`,
    scope: 'environment',
    tag: 'apps',
    summary: 'A file or a folder as a .tar (streamed)',
    params: AppNameParams,
    querystring: FilePathQuery,
    response: TarFile,
  }),
  read: defineRoute({
    method: 'GET',
    role: 'operator',
    path: `${P}/content`,
    scope: 'environment',
    tag: 'apps',
    summary: 'A text file up to 1 MiB (a binary file is refused)',
    params: AppNameParams,
    querystring: FilePathQuery,
    response: FileContent,
  }),
  write: defineRoute({
    method: 'PUT',
    role: 'operator',
    path: `${P}/content`,
    scope: 'environment',
    tag: 'apps',
    summary: 'Write a text file (an existing one keeps its mode and owner)',
    params: AppNameParams,
    querystring: FilePathQuery,
    body: FileContentBody,
    response: FileContent,
  }),
  upload: defineRoute({
    method: 'POST',
    role: 'operator',
    path: `${P}/upload`,
    scope: 'environment',
    tag: 'apps',
    summary:
      'Upload one file into the folder `path` as `name`: the request body is the file (application/octet-stream, Content-Length required), streamed to the engine',
    params: AppNameParams,
    querystring: FileUploadQuery,
    response: FileEntry,
  }),
  remove: defineRoute({
    method: 'DELETE',
    role: 'operator',
    path: P,
    scope: 'environment',
    tag: 'apps',
    summary: 'Delete a file or a folder with what it holds (a running container: the engine has no delete otherwise)',
    params: AppNameParams,
    querystring: FilePathQuery,
    response: FileDeleted,
  }),
  mkdir: defineRoute({
    method: 'POST',
    role: 'operator',
    path: `${P}/mkdir`,
    scope: 'environment',
    tag: 'apps',
    summary: 'Make a folder (its parent must exist)',
    params: AppNameParams,
    body: MkdirBody,
    response: FileEntry,
  }),
} as const;
