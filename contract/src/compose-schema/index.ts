/*
 * The Compose Specification's JSON schema and what is built on it: the save check (server) and
 * the editor's completion, hover and inline errors (web). A subpath of the contract
 * (`@berth/contract/compose-schema`) so the web app loads it only with the editor.
 */
import { keysAt } from './navigate';
import { buildComposeSchema } from './schema';
import type { SchemaNode } from './types';

let built: SchemaNode | undefined;
/**
 * The schema with the overlay applied, built on first use (a server that never checks a compose
 * file does not hold it).
 */
export const composeSchema = (): SchemaNode => (built ??= buildComposeSchema());

/** The top-level keys of the specification. */
export const composeTopLevelKeys = (): readonly string[] => keysAt(composeSchema(), []);
/** The keys of a service. */
export const composeServiceKeys = (): readonly string[] => keysAt(composeSchema(), ['services', 'service']);

export { composeSchemaProblem, formatPath, type SchemaProblem } from './check';
export { deref, isMergeKey, locate, mapsOf, type DataPath, type Span } from './locate';
export { descriptionAt, keysAt, schemasAt } from './navigate';
export type { SchemaNode } from './types';
export { composePolicyFeatures, isHostPathSource } from './policy-features';
