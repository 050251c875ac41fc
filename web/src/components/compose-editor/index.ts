// The compose file editor (YAML with compose-schema completion, hover help and lint) that projects and swarm stacks share.
export { ComposeEditor } from './ComposeEditor';
