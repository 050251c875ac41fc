import { memo } from 'react';
import { Badge } from '@mantine/core';
import { ansiParts, LEVEL_COLOUR, prettyJson, serviceColour, splitMatches, type LogItem } from './model';

export interface LineOptions {
  timestamps: boolean;
  /** Project logs: a coloured service tag before each line. */
  services: boolean;
  pretty: boolean;
  /** Long lines wrap (rows grow, measured) instead of scrolling sideways. */
  wrap: boolean;
  highlight: RegExp | null;
}

const MARK = { background: 'var(--mantine-color-yellow-filled)', color: 'var(--mantine-color-black)', borderRadius: 2 };

/** A line's text with its ANSI colours as spans and the search hits marked; all of it React text (escaped), never HTML. */
function Coloured({ text, highlight }: { text: string; highlight: RegExp | null }) {
  return (
    <>
      {ansiParts(text).map((p, i) => (
        <span
          key={i}
          style={
            p.color || p.background || p.bold
              ? { color: p.color, background: p.background, fontWeight: p.bold ? 700 : undefined }
              : undefined
          }
        >
          {splitMatches(p.text, highlight).map((piece, j) =>
            piece.hit ? (
              <mark key={j} style={MARK}>
                {piece.text}
              </mark>
            ) : (
              piece.text
            ),
          )}
        </span>
      ))}
    </>
  );
}

/** One log line: optional time and service tag, level colour, ANSI colours, hits, JSON pretty-printed when asked. */
export const LogLine = memo(function LogLine({ item, opts }: { item: LogItem; opts: LineOptions }) {
  const lines = opts.pretty && item.json ? prettyJson(item.json) : [item.line];
  return (
    <span
      style={{ color: LEVEL_COLOUR[item.level ?? 'info'] }}
      data-level={item.level ?? undefined}
      data-stream={item.stream}
    >
      {opts.timestamps && item.ts && <span style={{ color: 'var(--mantine-color-dimmed)' }}>{item.ts} </span>}
      {opts.services && item.service && (
        <Badge
          size="xs"
          radius="sm"
          variant="light"
          color={serviceColour(item.service)}
          mr={6}
          style={{ textTransform: 'none' }}
        >
          {item.service}
        </Badge>
      )}
      {lines.map((l, i) => (
        <span key={i}>
          {i > 0 && '\n'}
          <Coloured text={l} highlight={opts.highlight} />
        </span>
      ))}
    </span>
  );
});
