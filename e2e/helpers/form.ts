import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The input with this exact label (a required field's label ends with an asterisk). */
export const field = (page: Page, label: string) =>
  page.getByRole('textbox', { name: new RegExp(`^${escape(label)}\\s*\\*?$`) });

export const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/**
 * Picks an option of a select. On a busy machine the dropdown can still be moving into place
 * when the option is clicked, so the choice is checked and tried again.
 */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  const input = field(page, label);
  const item = page.getByRole('option', { name: option, exact: true });
  let last: unknown = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!(await item.isVisible())) await input.click();
    try {
      await item.click({ timeout: 5_000 });
    } catch (err) {
      last = err;
    }
    if ((await input.inputValue()) === option) return;
  }
  throw new Error(`could not choose ${option} in ${label}: ${String(last)}`);
}

export async function clearSelect(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: `Clear ${label}` }).click();
  await expect.poll(() => field(page, label).inputValue()).toBe('');
}

/** A hash route loaded afresh: no form state carried over from the previous test. */
export async function openFresh(page: Page, hash: string): Promise<void> {
  await page.goto(hash);
  await page.reload();
}

/** Types a value and leaves the field, so its rule is checked and shown. */
export async function fillAndLeave(page: Page, label: string, value: string): Promise<void> {
  const input = field(page, label);
  await input.fill(value);
  await input.blur();
}
