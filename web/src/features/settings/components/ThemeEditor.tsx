import { useEffect, useState } from 'react';
import { Button, Card, ColorPicker, Group, SegmentedControl, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDeviceFloppy, IconRestore } from '@tabler/icons-react';
import { notifyPlain } from '../../../lib/notify';
import { COLOR_NAMES, loadTheme, themeStore, useThemeState, type ColorName, type ThemeState } from '../../../lib/theme';

const LABELS: Record<ColorName, string> = {
  primary: 'Primary',
  secondary: 'Secondary',
  background: 'Background',
  foreground: 'Foreground',
  tabs: 'Tabs',
};
const HEX = /^#[0-9a-f]{6}$/i;
const SWATCHES = [
  '#41b883',
  '#0069ff',
  '#5dacdf',
  '#e53935',
  '#fab005',
  '#7950f2',
  '#1a1b1e',
  '#25262b',
  '#ffffff',
  '#f5f7f8',
];

/**
 * Settings → Theme: pick which colour to edit, change it (previewed live), switch dark mode;
 * Set saves to local storage (dark_theme, theme), Reset forgets the custom theme and reloads.
 */
export function ThemeEditor() {
  const saved = useThemeState();
  const [draft, setDraft] = useState<ThemeState>(saved);
  const [name, setName] = useState<ColorName>('primary');
  // Text typed into the hex field that is not a whole colour yet.
  const [typing, setTyping] = useState<string | null>(null);
  const palette = draft.dark ? 'darkColors' : 'light';
  const value = draft[palette][name];
  const narrow = useMediaQuery('(max-width: 36em)');

  // Leaving the page drops a preview that was never set.
  useEffect(() => () => themeStore.preview(loadTheme()), []);

  const change = (next: ThemeState) => {
    setDraft(next);
    themeStore.preview(next);
  };
  const setColor = (hex: string) => change({ ...draft, [palette]: { ...draft[palette], [name]: hex.toLowerCase() } });

  return (
    <Card withBorder maw={640} style={{ background: 'var(--berth-surface)' }}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Colours of the {draft.dark ? 'dark' : 'light'} theme. Changes show at once; Set keeps them in this browser.
        </Text>
        <SegmentedControl
          aria-label="Colour to edit"
          data={COLOR_NAMES.map((n) => ({ value: n, label: LABELS[n] }))}
          value={name}
          onChange={(v) => {
            setName(v as ColorName);
            setTyping(null);
          }}
          fullWidth
          // Five names do not fit side by side on a phone: stack them there rather than clip them.
          orientation={narrow ? 'vertical' : 'horizontal'}
        />
        <ColorPicker
          format="hex"
          value={value}
          onChange={(hex) => {
            setTyping(null);
            setColor(hex);
          }}
          swatches={SWATCHES}
          fullWidth
          saturationLabel={`${LABELS[name]} colour saturation and brightness`}
          hueLabel={`${LABELS[name]} colour hue`}
        />
        <TextInput
          label={`${LABELS[name]} colour`}
          value={typing ?? value}
          error={typing !== null && !HEX.test(typing) ? 'A colour like #41b883' : undefined}
          onChange={(e) => {
            const v = e.currentTarget.value.trim();
            if (HEX.test(v)) {
              setTyping(null);
              setColor(v);
            } else setTyping(v);
          }}
          leftSection={
            <span
              aria-hidden
              style={{
                width: 14,
                height: 14,
                borderRadius: 3,
                background: value,
                border: '1px solid var(--mantine-color-default-border)',
              }}
            />
          }
        />
        <Switch
          label="Dark theme"
          checked={draft.dark}
          onChange={(e) => change({ ...draft, dark: e.currentTarget.checked })}
        />
        <Group>
          <Button
            leftSection={<IconDeviceFloppy size={16} />}
            onClick={() => {
              themeStore.save(draft);
              notifyPlain('Theme saved');
            }}
          >
            Set
          </Button>
          <Button
            variant="default"
            leftSection={<IconRestore size={16} />}
            onClick={() => {
              themeStore.reset();
              window.location.reload();
            }}
          >
            Reset
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
