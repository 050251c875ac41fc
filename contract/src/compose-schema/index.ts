/*
 * The Compose Specification's JSON schema and what is built on it: the save check (server) and
 * the editor's completion, hover and inline errors (web). A subpath of the contract
 * (`@berth/contract/compose-schema`) so the web app loads it only with the editor.
 */
import { keysAt } from './navigate';
import { buildComposeSchema } from './schema';

export const COMPOSE_SCHEMA = buildComposeSchema();

/** The top-level keys of the specification. */
export const COMPOSE_TOP_LEVEL_KEYS: readonly string[] = keysAt(COMPOSE_SCHEMA, []);
/** The keys of a service. */
export const COMPOSE_SERVICE_KEYS: readonly string[] = keysAt(COMPOSE_SCHEMA, ['services', 'service']);

export { composeSchemaProblem, formatPath, type SchemaProblem } from './check';
export { deref, isMergeKey, locate, mapsOf, type DataPath, type Span } from './locate';
export { descriptionAt, keysAt, schemasAt } from './navigate';
export type { SchemaNode } from './types';
