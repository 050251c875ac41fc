import { tags as t } from '@lezer/highlight';
import { createTheme } from '@uiw/codemirror-themes';

/**
 * The spec names the Ace themes 'textmate' (light) and 'twilight' (dark); these are CodeMirror
 * themes with their palettes.
 */
export const textmate = createTheme({
  theme: 'light',
  settings: {
    background: '#ffffff',
    foreground: '#000000',
    caret: '#000000',
    selection: '#b5d5ff',
    selectionMatch: '#d6e6fc',
    lineHighlight: '#0000000f',
    gutterBackground: '#f0f0f0',
    gutterForeground: '#333333',
  },
  styles: [
    { tag: t.comment, color: '#4c886b' },
    { tag: [t.propertyName, t.definition(t.propertyName)], color: '#00168e' },
    { tag: [t.string, t.special(t.string)], color: '#036a07' },
    { tag: [t.number, t.bool, t.null, t.atom], color: '#0000cd' },
    { tag: [t.keyword, t.operator, t.punctuation, t.separator], color: '#0000ff' },
    { tag: [t.labelName, t.typeName, t.meta], color: '#318495' },
  ],
});

export const twilight = createTheme({
  theme: 'dark',
  settings: {
    background: '#141414',
    foreground: '#f8f8f8',
    caret: '#a7a7a7',
    selection: '#ddf0ff33',
    selectionMatch: '#ddf0ff22',
    lineHighlight: '#ffffff08',
    gutterBackground: '#232323',
    gutterForeground: '#e2e2e2',
  },
  styles: [
    { tag: t.comment, color: '#5f5a60', fontStyle: 'italic' },
    { tag: [t.propertyName, t.definition(t.propertyName)], color: '#cda869' },
    { tag: [t.string, t.special(t.string)], color: '#8f9d6a' },
    { tag: [t.number, t.bool, t.null, t.atom], color: '#cf6a4c' },
    { tag: [t.keyword, t.operator, t.punctuation, t.separator], color: '#cda869' },
    { tag: [t.labelName, t.typeName, t.meta], color: '#7587a6' },
  ],
});
