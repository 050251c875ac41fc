/** ajv's validator generated from the Compose Specification's schema (see generate.ts). */
export declare const validate: ((data: unknown) => boolean) & { errors?: unknown[] | null };
export default validate;
