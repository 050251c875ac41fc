import { useMemo } from 'react';
import { Box, useComputedColorScheme } from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import { yaml, yamlLanguage } from '@codemirror/lang-yaml';
import CodeMirror, { EditorView } from '@uiw/react-codemirror';
import { composeCompletion, composeHover } from './compose-completion';
import { usePolicyJudge } from '../../lib/policy';
import { composeLint } from './compose-lint';
import { textmate, twilight } from './editor-themes';

/** Spec: the editor is the window's height minus 205 and its width minus 80 (never wider than the page). */
const HEIGHT_OFFSET = 205;
const WIDTH_OFFSET = 80;

/**
 * The YAML code editor of a compose file, in the app's light or dark scheme, with help from the
 * Compose Specification's schema: key completion, descriptions on hover, errors marked inline.
 */
export function ComposeEditor({
  value,
  onChange,
  project,
}: {
  value: string;
  onChange: (value: string) => void;
  /** The project's (or stack's) name once known: the volumes the file does not name are `<project>_<key>`. */
  project?: string;
}) {
  const scheme = useComputedColorScheme('light');
  const { height, width } = useViewportSize();
  // Marks what the role policy refuses before a save (for an operator; nothing for an admin).
  const judge = usePolicyJudge();
  // The name goes on the editable element itself (the wrapper div has no role to carry it).
  const extensions = useMemo(
    () => [
      yaml(),
      yamlLanguage.data.of({ autocomplete: composeCompletion }),
      composeHover,
      composeLint(judge, project),
      EditorView.contentAttributes.of({ 'aria-label': 'Compose file' }),
    ],
    [judge, project],
  );
  return (
    <Box
      maw="100%"
      style={{ overflow: 'hidden', borderRadius: 4, border: '1px solid var(--mantine-color-default-border)' }}
      data-testid="compose-editor"
    >
      <CodeMirror
        value={value}
        onChange={onChange}
        extensions={extensions}
        theme={scheme === 'dark' ? twilight : textmate}
        height={`${Math.max(240, height - HEIGHT_OFFSET)}px`}
        width={`${Math.max(280, width - WIDTH_OFFSET)}px`}
        maxWidth="100%"
        basicSetup={{ tabSize: 2 }}
      />
    </Box>
  );
}
