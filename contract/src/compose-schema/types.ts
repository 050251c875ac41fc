/** A JSON Schema node as the Compose Specification's schema uses them (draft 7 keywords). */
export interface SchemaNode {
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  $ref?: string;
  definitions?: Record<string, SchemaNode>;
  required?: string[];
  enum?: unknown[];
  [keyword: string]: unknown;
}
