// The package ships no types; the test reads prom2json's shape through its own interface.
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown;
}
