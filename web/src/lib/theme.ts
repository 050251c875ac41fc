import { useSyncExternalStore } from 'react';
import {
  createTheme,
  Notification,
  type CSSVariablesResolver,
  type ModalProps,
  type MantineColorsTuple,
  type MantineThemeOverride,
} from '@mantine/core';

/**
 * Colours the user can edit. `foreground` is the surface of cards, bars and menus (as in
 * the original product, where cards used it), `tabs` the background of tab strips.
 */
export interface ThemeColors {
  primary: string;
  secondary: string;
  background: string;
  foreground: string;
  tabs: string;
}
export type ColorName = keyof ThemeColors;
export const COLOR_NAMES: ColorName[] = ['primary', 'secondary', 'background', 'foreground', 'tabs'];

export interface ThemePreset {
  dark: boolean;
  light: ThemeColors;
  darkColors: ThemeColors;
}

export const PRESETS: Record<'Default' | 'DigitalOcean' | 'OMV' | 'RED', ThemePreset> = {
  Default: {
    dark: true,
    light: { primary: '#41b883', secondary: '#34495e', background: '#f5f7f8', foreground: '#ffffff', tabs: '#ffffff' },
    darkColors: {
      primary: '#41b883',
      secondary: '#3d4c5b',
      background: '#1a1b1e',
      foreground: '#25262b',
      tabs: '#25262b',
    },
  },
  DigitalOcean: {
    dark: false,
    light: { primary: '#0069ff', secondary: '#031b4e', background: '#f3f5f9', foreground: '#ffffff', tabs: '#ffffff' },
    darkColors: {
      primary: '#3d8bff',
      secondary: '#0b2a6f',
      background: '#031b4e',
      foreground: '#0a2660',
      tabs: '#0a2660',
    },
  },
  OMV: {
    dark: false,
    light: { primary: '#5dacdf', secondary: '#3a4d5c', background: '#eef1f4', foreground: '#ffffff', tabs: '#ffffff' },
    darkColors: {
      primary: '#5dacdf',
      secondary: '#46606f',
      background: '#1e2225',
      foreground: '#2a3035',
      tabs: '#2a3035',
    },
  },
  RED: {
    dark: true,
    light: { primary: '#d32f2f', secondary: '#424242', background: '#f7f4f4', foreground: '#ffffff', tabs: '#ffffff' },
    darkColors: {
      primary: '#e53935',
      secondary: '#4a2a2a',
      background: '#181414',
      foreground: '#241d1d',
      tabs: '#241d1d',
    },
  },
};
export type PresetName = keyof typeof PRESETS;

/** Spec: one preset is chosen by a build setting (VITE_THEME_PRESET). */
export const BUILD_PRESET: PresetName = (() => {
  const name = import.meta.env.VITE_THEME_PRESET as string | undefined;
  return name && name in PRESETS ? (name as PresetName) : 'Default';
})();

export const DARK_KEY = 'dark_theme';
export const THEME_KEY = 'theme';

export interface ThemeState {
  dark: boolean;
  light: ThemeColors;
  darkColors: ThemeColors;
}

const HEX = /^#[0-9a-f]{6}$/i;

function mergeColors(base: ThemeColors, stored: unknown): ThemeColors {
  const out = { ...base };
  if (stored && typeof stored === 'object') {
    for (const name of COLOR_NAMES) {
      const v = (stored as Record<string, unknown>)[name];
      if (typeof v === 'string' && HEX.test(v)) out[name] = v;
    }
  }
  return out;
}

/** Reads `dark_theme` and `theme` from local storage; anything unreadable falls back to the preset. */
export function loadTheme(preset: ThemePreset = PRESETS[BUILD_PRESET]): ThemeState {
  let dark = preset.dark;
  let stored: { light?: unknown; dark?: unknown } = {};
  try {
    const d = localStorage.getItem(DARK_KEY);
    if (d === 'true' || d === 'false') dark = d === 'true';
    const t = localStorage.getItem(THEME_KEY);
    if (t) stored = JSON.parse(t) as typeof stored;
  } catch {
    // Blocked storage or a hand-edited value: the preset is a correct theme.
    stored = {};
  }
  return {
    dark,
    light: mergeColors(preset.light, stored.light),
    darkColors: mergeColors(preset.darkColors, stored.dark),
  };
}

let state: ThemeState = loadTheme();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Theme state shared by the providers and the Theme settings page. */
export const themeStore = {
  get: (): ThemeState => state,
  subscribe(l: () => void): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  /** Live preview without saving. */
  preview(next: ThemeState): void {
    state = next;
    emit();
  },
  /** Applies and persists (the Theme page's set button). */
  save(next: ThemeState): void {
    localStorage.setItem(DARK_KEY, String(next.dark));
    localStorage.setItem(THEME_KEY, JSON.stringify({ light: next.light, dark: next.darkColors }));
    themeStore.preview(next);
  },
  setDark(dark: boolean): void {
    localStorage.setItem(DARK_KEY, String(dark));
    themeStore.preview({ ...state, dark });
  },
  /** Forgets the custom colours (the Theme page's reset button). */
  reset(): void {
    localStorage.removeItem(DARK_KEY);
    localStorage.removeItem(THEME_KEY);
    themeStore.preview(loadTheme());
  },
};

export function useThemeState(): ThemeState {
  return useSyncExternalStore(themeStore.subscribe, themeStore.get, themeStore.get);
}

export function activeColors(s: ThemeState): ThemeColors {
  return s.dark ? s.darkColors : s.light;
}

function mix(hex: string, target: number, amount: number): string {
  const n = parseInt(hex.slice(1), 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => Math.round(c + (target - c) * amount));
  return `#${ch.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** Ten Mantine shades around one colour; shade 6 is the colour itself. */
export function shades(hex: string): MantineColorsTuple {
  const lighter = [0.9, 0.78, 0.64, 0.5, 0.34, 0.17].map((a) => mix(hex, 255, a));
  const darker = [0.12, 0.24, 0.36].map((a) => mix(hex, 0, a));
  return [...lighter, hex, ...darker] as unknown as MantineColorsTuple;
}

export function buildMantineTheme(s: ThemeState): MantineThemeOverride {
  const c = activeColors(s);
  return createTheme({
    primaryColor: 'primary',
    primaryShade: 6,
    colors: { primary: shades(c.primary), secondary: shades(c.secondary) },
    defaultRadius: 'sm',
    cursorType: 'pointer',
    // Text on a filled (primary) button is dark or light by the colour's luminance, so a light
    // custom colour still reads (WCAG AA contrast).
    autoContrast: true,
    // ...and it picks whichever of the two reads better: black and white give the same contrast at a
    // luminance of about 0.18 (Mantine's default 0.3 put white on the red buttons at 3.3:1).
    luminanceThreshold: 0.18,
    // Every dialog's and notification's close (X) button gets a name screen readers can say; not
    // "Close", which the dialogs' and the deploy error's own Close buttons are called. The Modal's
    // entry is written out (what Modal.extend returns) so the dialog code is not in the first chunks.
    components: {
      Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss dialog' } } satisfies Partial<ModalProps> },
      Notification: Notification.extend({
        defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } },
      }),
    },
  });
}

const rgb = (hex: string) => {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255] as const;
};
const toHex = (c: readonly number[]) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `top` at `alpha` over an opaque `under` (how a light variant's tint is seen). */
const over = (top: string, alpha: number, under: string) =>
  toHex(rgb(top).map((v, i) => v * alpha + rgb(under)[i]! * (1 - alpha)));

/** The colour, darkened as little as needed to read at 4.6:1 (WCAG AA with a margin) on every background. */
export function readableOn(hex: string, backgrounds: readonly string[]): string {
  for (let amount = 0; amount < 1; amount += 0.04) {
    const c = mix(hex, 0, amount);
    if (backgrounds.every((bg) => contrast(c, bg) >= 4.6)) return c;
  }
  return '#000000';
}

/**
 * Light scheme: coloured text (Text c=, light and outline variants of badges and buttons, the
 * active nav link, anchors) uses each colour's shade 6, which reads at 2-3:1 on white and on its
 * own tint for most colours. Each gets a darker text shade that meets AA on the page, the
 * surfaces and its tint; fills keep the chosen colour.
 */
function readableLightText(s: ThemeState, colors: Record<string, readonly string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, tuple] of Object.entries(colors)) {
    const base = tuple[6];
    if (!base || !HEX.test(base)) continue;
    const grounds = [s.light.background, s.light.foreground, s.light.tabs];
    const text = readableOn(base, [...grounds, ...grounds.map((g) => over(base, 0.12, g))]);
    out[`--mantine-color-${name}-text`] = text;
    out[`--mantine-color-${name}-light-color`] = text;
    out[`--mantine-color-${name}-outline`] = text;
    if (name === 'primary') out['--mantine-color-anchor'] = text;
  }
  return out;
}

/** Background, surfaces and tab strips follow the chosen colours in both schemes. */
export function themeCssResolver(s: ThemeState): CSSVariablesResolver {
  return (theme) => ({
    variables: {},
    // Mantine's dimmed grey reads at about 3:1 on white; these meet WCAG AA (4.5:1) for small text.
    light: {
      ...readableLightText(s, theme.colors),
      '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
      '--mantine-color-body': s.light.background,
      '--berth-surface': s.light.foreground,
      '--berth-tabs': s.light.tabs,
    },
    dark: {
      '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
      '--mantine-color-body': s.darkColors.background,
      '--berth-surface': s.darkColors.foreground,
      '--berth-tabs': s.darkColors.tabs,
    },
  });
}
