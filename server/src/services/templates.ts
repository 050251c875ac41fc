import type { NewTemplateBody, Template, TemplateDetail, TemplateItem, TemplateWriteResult } from '@berth/contract';
import type { TemplatesRepo } from '../db/templates-repo';
import {
  BlockedAddressError,
  CatalogueTooLargeError,
  ConflictError,
  InvalidCatalogueError,
  NotFoundError,
  UpstreamError,
  UpstreamTimeoutError,
  ValidationError,
  type AppError,
} from '../errors';
import { safeFetch, SafeFetchError, type SafeFetchOptions } from '../lib/safe-fetch';
import { CatalogueError, parseCatalogue, type ParsedCatalogue } from './template-parse';

export interface TemplatesOptions {
  allowLoopback: boolean;
  /** Whole fetch, redirects included (15 s unless a test shortens it). */
  fetchTimeoutMs: number;
  userAgent: string;
}

/** A fetch failure as the client sees it: the user's URL is at fault (4xx) or the far side is (502/504). */
function fetchFailure(err: SafeFetchError): AppError {
  const detail = `Could not read the catalogue: ${err.message}`;
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

  private async load(url: string): Promise<ParsedCatalogue> {
    const fetchOpts: SafeFetchOptions = {
      allowLoopback: this.opts.allowLoopback,
      timeoutMs: this.opts.fetchTimeoutMs,
      headers: { accept: 'application/json, application/yaml, text/yaml, text/plain;q=0.8, */*;q=0.5', 'user-agent': this.opts.userAgent },
    };
    try {
      const res = await safeFetch(url, fetchOpts);
      return parseCatalogue(res.body.toString('utf8'), { url: res.url, contentType: res.contentType });
    } catch (err) {
      if (err instanceof SafeFetchError) throw fetchFailure(err);
      if (err instanceof CatalogueError) throw new InvalidCatalogueError(err.message);
      throw err;
    }
  }
}
