import {
  MAX_COMPOSE_BYTES,
  type NewTemplateBody,
  type Template,
  type TemplateDetail,
  type TemplateItem,
  type TemplateWriteResult,
} from '@berth/contract';
import type { TemplatesRepo } from '../../db/templates-repo';
import {
  AppError,
  BlockedAddressError,
  CatalogueTooLargeError,
  ConflictError,
  InvalidCatalogueError,
  NotFoundError,
  UpstreamError,
  UpstreamTimeoutError,
  ValidationError,
} from '../../errors';
import { safeFetch, SafeFetchError, type SafeFetchOptions } from '../../lib/safe-fetch';
import { CatalogueError, parseCatalogue, type ParsedCatalogue } from './template-parse';
import { escapeRegExp, type Substituter } from '../variables/variables';

export interface TemplatesOptions {
  allowLoopback: boolean;
  /** Whole fetch, redirects included (15 s unless a test shortens it). */
  fetchTimeoutMs: number;
  userAgent: string;
}

/** A fetch failure as the client sees it: the user's URL is at fault (4xx) or the far side is (502/504). */
function fetchFailure(err: SafeFetchError, what = 'the catalogue'): AppError {
  const detail = `Could not read ${what}: ${err.message}`;
  switch (err.reason) {
    case 'bad_url':
      return new ValidationError(detail, [{ field: 'url', message: err.message }]);
    case 'blocked_address':
      return new BlockedAddressError(detail, [{ field: 'url', message: err.message }]);
    case 'timeout':
      return new UpstreamTimeoutError(detail);
    case 'too_large':
      return new CatalogueTooLargeError(detail);
    default:
      return new UpstreamError(detail);
  }
}

/** Where `name` is used in compose text the way compose would read it; `$$NAME` (an escaped dollar) is not a use. */
const usePattern = (name: string) => {
  const n = escapeRegExp(name);
  return new RegExp(`(?<!\\$)\\$(?:\\{${n}(?:(?::?[-?])[^}]*)?\\}|${n}(?![A-Za-z0-9_]))`, 'g');
};

/**
 * Sets one variable in compose text. The value's own `$` is written `$$` (compose's escape), so
 * compose keeps it literally: `pa$word` stays `pa$word`, never `pa` with `$word` interpolated.
 */
function fillEnv(content: string, name: string, value: string): string {
  return content.replace(usePattern(name), () => value.replaceAll('$', '$$$$'));
}

/** A blank variable said as the cause, ahead of what the check refused. */
function blankSentence(names: string[]): string {
  const them = names.length === 1 ? `variable ${names[0]} was` : `variables ${names.join(', ')} were`;
  return `The stack template's ${them} left empty, and the file uses ${names.length === 1 ? 'it' : 'them'}:`;
}

/** Template sources: a title and a catalogue URL whose items are fetched, normalised and stored. */
export class TemplatesService {
  constructor(
    private readonly repo: TemplatesRepo,
    private readonly opts: TemplatesOptions,
  ) {}

  list(): Template[] {
    return this.repo.list();
  }

  get(id: number): TemplateDetail {
    return { ...this.require(id), items: this.repo.items(id) };
  }

  item(id: number): TemplateItem {
    const item = this.repo.item(id);
    if (!item) throw new NotFoundError('template item', id);
    return item;
  }

  /**
   * A stack template's compose file, fetched through the guarded fetcher, with the template's env
   * entries (`${NAME}`, `${NAME:-…}`, `$NAME`) set to `env`'s values or their defaults and the
   * template variables applied. Nothing is written here: the caller saves it as a project.
   */
  async stackFile(
    itemId: number,
    env: Record<string, string>,
    variables: Substituter,
  ): Promise<{ content: string; blank: string[] }> {
    const item = this.item(itemId);
    if (!item.stack)
      throw new ValidationError(`Template "${item.title}" is a container template; deploy it with the deploy form.`, [
        { field: 'item_id', message: 'Not a stack template.' },
      ]);
    for (const [name, value] of Object.entries(env)) {
      if (/[\u0000-\u001f\u007f]/.test(value))
        throw new ValidationError(`The value of ${name} contains a line break or control character.`, [
          { field: `env.${name}`, message: 'No line breaks or control characters.' },
        ]);
    }
    let content: string;
    try {
      const res = await safeFetch(item.stack.url, {
        ...this.fetchOptions('application/yaml, text/yaml, text/plain, */*;q=0.5'),
        maxBytes: MAX_COMPOSE_BYTES,
      });
      content = res.body.toString('utf8');
    } catch (err) {
      if (err instanceof SafeFetchError) throw fetchFailure(err, 'the stack file');
      throw err;
    }
    const blank: string[] = [];
    for (const entry of item.env) {
      const value = env[entry.name] ?? entry.default;
      if (!value.trim() && usePattern(entry.name).test(content)) blank.push(entry.name);
      content = fillEnv(content, entry.name, value);
    }
    return { content: variables.apply(content), blank };
  }

  /**
   * Saves a stack template's filled file with `save`; when the save is refused and a variable the
   * file uses was left empty, the refusal names that variable first ("ports contains an invalid
   * type" alone did not say which value was missing).
   */
  async saveStack<T>(
    itemId: number,
    env: Record<string, string>,
    variables: Substituter,
    save: (content: string) => Promise<T>,
  ): Promise<T> {
    const { content, blank } = await this.stackFile(itemId, env, variables);
    try {
      return await save(content);
    } catch (err) {
      if (!blank.length || !(err instanceof AppError) || err.statusCode >= 500) throw err;
      throw err.withDetail(`${blankSentence(blank)} ${err.message}`);
    }
  }

  async create(body: NewTemplateBody): Promise<TemplateWriteResult> {
    this.checkUnique(body.title, body.url);
    const parsed = await this.load(body.url);
    // Checked again: another request may have added the same source while this one was fetching.
    this.checkUnique(body.title, body.url);
    const id = this.repo.create(body.title, body.url, parsed.items, new Date().toISOString());
    return { ...this.require(id), skipped: parsed.skipped };
  }

  async refresh(id: number): Promise<TemplateWriteResult> {
    const template = this.require(id);
    const parsed = await this.load(template.url);
    this.require(id);
    this.repo.replaceItems(id, parsed.items, new Date().toISOString());
    return { ...this.require(id), skipped: parsed.skipped };
  }

  remove(id: number): Template {
    const template = this.require(id);
    this.repo.delete(id);
    return template;
  }

  private require(id: number): Template {
    const template = this.repo.get(id);
    if (!template) throw new NotFoundError('template', id);
    return template;
  }

  private checkUnique(title: string, url: string): void {
    const taken = this.repo.taken(title, url);
    if (taken.url) throw new ConflictError('A template with this URL already exists.');
    if (taken.title) throw new ConflictError(`A template titled "${title}" already exists.`);
  }

  private fetchOptions(accept: string): SafeFetchOptions {
    return {
      allowLoopback: this.opts.allowLoopback,
      timeoutMs: this.opts.fetchTimeoutMs,
      headers: { accept, 'user-agent': this.opts.userAgent },
    };
  }

  private async load(url: string): Promise<ParsedCatalogue> {
    try {
      const res = await safeFetch(
        url,
        this.fetchOptions('application/json, application/yaml, text/yaml, text/plain;q=0.8, */*;q=0.5'),
      );
      return parseCatalogue(res.body.toString('utf8'), { url: res.url, contentType: res.contentType });
    } catch (err) {
      if (err instanceof SafeFetchError) throw fetchFailure(err);
      if (err instanceof CatalogueError) throw new InvalidCatalogueError(err.message);
      throw err;
    }
  }
}
