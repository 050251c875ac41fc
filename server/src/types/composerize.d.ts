// composerize ships no types; this is the one function Berth calls.
declare module 'composerize' {
  /** Turns `docker run …` (or create / service create) into compose YAML; throws for anything else. */
  export default function composerize(
    command: string,
    existingCompose?: string,
    composeVersion?: string,
    indent?: number,
  ): string;
}
