import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, requireHarnessEngine, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { buildImage, cleanup, exists, uniqueName } from '../server/test/images-fixtures';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-resources-password';
const octet = 1 + Math.floor(Math.random() * 200);

describe('images, volumes and networks', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const made = { image: [] as string[], volume: [] as string[], network: [] as string[], container: [] as string[] };

  beforeAll(async () => {
    server = await startServer({ env: { ADMIN_PASSWORD: PASSWORD } });
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.baseUrl));
    await signIn(page, EMAIL, PASSWORD);
  });
  afterAll(async () => {
    cleanup('container', ...made.container);
    cleanup('network', ...made.network);
    cleanup('volume', ...made.volume);
    cleanup('image', ...made.image);
    await browser?.close();
    await server?.stop();
  });

  const notification = (text: string | RegExp) => page.locator('.mantine-Notification-root').filter({ hasText: text });
  const row = (text: string) => page.getByRole('row').filter({ hasText: text });

  it('pulls an image in the Pull Image dialog, streaming its progress', async () => {
    const { image } = testEngine();
    await page.goto('/#/resources/images');
    await expectRouteName(page, 'Images');
    await page.getByRole('button', { name: 'Pull Image' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pull Image' });
    const field = dialog.getByLabel('Image');
    expect(await field.getAttribute('placeholder')).toMatch(/^[a-z]+:[a-z0-9.]+$/);

    await field.fill('Bad;ref');
    await dialog.getByText(/not a valid/).waitFor();
    expect(await dialog.getByRole('button', { name: 'Pull' }).isDisabled()).toBe(true);

    await field.fill(image);
    const streamed = page.waitForResponse(
      (r) => r.url().endsWith('/api/resources/images/') && r.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Pull' }).click();
    const res = await streamed;
    expect(res.request().headers()['accept']).toBe('text/event-stream');
    expect(res.headers()['content-type']).toMatch(/text\/event-stream/);
    await notification(`OK: Pulled ${image}.`).waitFor();
    // The engine's progress lines stay readable in the dialog after the pull.
    const progress = dialog.getByLabel('Pull progress', { exact: true });
    await progress.getByText(/Pulling from berth-test\/busybox/).waitFor();
    await progress.getByText(/Status: (Image is up to date|Downloaded newer image) for /).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The row shows the tag a container uses (else the newest); its other tags are in the "+N" chip, and the
    // table's search matches every tag.
    await page.getByRole('textbox', { name: 'Search' }).fill(image);
    await row(image)
      .or(page.getByRole('row').filter({ has: page.getByLabel(image) }))
      .first()
      .waitFor();
    await page.getByRole('textbox', { name: 'Search' }).fill('');
  });

  it('deletes an unused image after asking, from its row menu', async () => {
    const tag = `${uniqueName('e2e-img')}:v1`;
    made.image.push(tag);
    buildImage(tag);
    await page.goto('/#/resources/images');
    await page.reload();
    await page.getByLabel('Search').fill(tag);
    await row(tag).getByText('Unused').waitFor();
    // The Size column says how much the image takes.
    await row(tag)
      .getByRole('cell', { name: /^[\d.]+ (Bytes|KB|MB|GB)$/ })
      .waitFor();
    await row(tag)
      .getByRole('button', { name: `Actions for ${tag}` })
      .click();
    await page.getByRole('menuitem', { name: 'Pull' }).waitFor();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the image?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await notification(`Image ${tag} deleted.`).waitFor();
    await page.getByText('No Images available.').or(page.getByText('No matching rows.')).waitFor();
    expect(exists('image', tag)).toBe(false);
  });

  it('creates a volume, opens it and deletes it from its details', async () => {
    const name = uniqueName('e2e-vol');
    made.volume.push(name);
    await page.goto('/#/resources/volumes');
    await expectRouteName(page, 'Volumes');
    await page.getByRole('button', { name: 'Create Volume' }).click();
    await page.getByRole('dialog', { name: 'Create Volume' }).getByLabel('Volume name').fill(name);
    await page.getByRole('dialog', { name: 'Create Volume' }).getByRole('button', { name: 'Create' }).click();
    await row(name).getByText('Unused').waitFor();
    // Two containers mount it, one read-only: the list says it is in use, its page names them.
    const users = [uniqueName('e2e-vol-rw'), uniqueName('e2e-vol-ro')];
    const label = ['--label', 'berth.test=1'];
    made.container.push(...users);
    dockerCli(['create', '--name', users[0]!, ...label, '-v', `${name}:/data`, testEngine().image]);
    dockerCli(['create', '--name', users[1]!, ...label, '-v', `${name}:/ro:ro`, testEngine().image]);
    await page.reload();
    await row(name).getByText('In use (2)').waitFor();
    await row(name).click();
    await expectRouteName(page, 'Volume Details');
    await page.getByText(`/volumes/${name}/_data`).waitFor();
    const usedBy = page.getByRole('table', { name: 'Containers using the volume' });
    await usedBy.getByRole('row').filter({ hasText: users[0] }).getByText('read-write').waitFor();
    await usedBy.getByRole('row').filter({ hasText: users[1] }).getByText('read-only').waitFor();
    cleanup('container', ...users);
    await page.reload();
    await page.getByText('No container uses this volume.').waitFor();
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete Volume' }).click();
    await page.getByRole('dialog', { name: 'Delete the volume?' }).getByRole('button', { name: 'Delete' }).click();
    await expectRouteName(page, 'Volumes');
    expect(exists('volume', name)).toBe(false);
  });

  it('shows in the Create Network form only the fields each driver takes', async () => {
    await page.goto('/#/resources/networks/new');
    await expectRouteName(page, 'New Network');
    const create = page.getByRole('button', { name: 'Create', exact: true });
    const field = (label: string) => page.getByRole('textbox', { name: label, exact: true });
    const count = (label: string) => field(label).count();

    // bridge: no interface; IPv4 and IPv6 ranges; IPv6 fields disabled until enabled.
    expect(await count('Network Interface')).toBe(0);
    expect(await count('IP Range')).toBe(1);
    expect(await field('IPv6 Subnet').isDisabled()).toBe(true);
    expect(await count('IPv6 Range')).toBe(1);
    expect(await page.getByLabel('Attachable').isChecked()).toBe(true);
    expect(await page.getByLabel('Enable IPv6').isChecked()).toBe(false);
    expect(await create.isDisabled()).toBe(true);
    await field('Name').fill('berth-t-e2e-form');
    expect(await create.isDisabled()).toBe(false);
    await page.getByLabel('Enable IPv6').check();
    expect(await field('IPv6 Subnet').isDisabled()).toBe(false);

    // macvlan: the interface appears and is required; both ranges hide; IPv6 subnet stays.
    await page.getByRole('textbox', { name: 'Driver' }).click();
    await page.getByRole('option', { name: 'macvlan' }).click();
    expect(await count('Network Interface')).toBe(1);
    expect(await create.isDisabled()).toBe(true);
    await field('Network Interface').fill('eth0');
    expect(await create.isDisabled()).toBe(false);
    expect(await count('IP Range')).toBe(0);
    expect(await count('IPv6 Range')).toBe(0);
    expect(await count('IPv6 Subnet')).toBe(1);

    // ipvlan: no interface, the IPv4 range is back, no IPv6 fields.
    await page.getByRole('textbox', { name: 'Driver' }).click();
    await page.getByRole('option', { name: 'ipvlan' }).click();
    expect(await count('Network Interface')).toBe(0);
    expect(await count('IP Range')).toBe(1);
    expect(await count('IPv6 Subnet')).toBe(0);
    expect(await create.isDisabled()).toBe(false);
  });

  it('creates a bridge network with addresses, refuses a gateway outside its subnet, shows and deletes it', async () => {
    const name = uniqueName('e2e-net');
    made.network.push(name);
    const p = `10.251.${octet}`;
    await page.goto('/#/resources/networks');
    await page.getByRole('link', { name: 'Create Network' }).click();
    await expectRouteName(page, 'New Network');
    const field = (label: string) => page.getByRole('textbox', { name: label, exact: true });
    await field('Name').fill(name);
    await field('Subnet').fill(`${p}.0/24`);
    await field('Gateway').fill('10.99.0.1');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `Gateway 10.99.0.1 is outside the subnet ${p}.0/24` })
      .waitFor();
    expect(exists('network', name)).toBe(false);

    await field('Gateway').fill(`${p}.1`);
    await field('IP Range').fill(`${p}.128/25`);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expectRouteName(page, 'Networks');
    // The list shows each network's subnet and gateway, sorted by name.
    await row(name)
      .getByRole('cell', { name: `${p}.0/24`, exact: true })
      .waitFor();
    await row(name)
      .getByRole('cell', { name: `${p}.1`, exact: true })
      .waitFor();
    const names = await page
      .getByRole('table', { name: 'Networks' })
      .getByRole('row')
      .evaluateAll((rows) =>
        rows.slice(1, 50).map((r) => r.querySelectorAll('td')[1]?.textContent?.replace(/Unused$/, '') ?? ''),
      );
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    await row(name).click();
    await expectRouteName(page, 'Network Details');
    await page.getByText(`${p}.0/24`, { exact: true }).waitFor();
    await page.getByText(`${p}.1`, { exact: true }).waitFor();
    await page.getByText('No containers attached.').waitFor();
    await page.getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete Network' }).click();
    await page.getByRole('dialog', { name: 'Delete the network?' }).getByRole('button', { name: 'Delete' }).click();
    await expectRouteName(page, 'Networks');
    expect(exists('network', name)).toBe(false);
  });

  it('asks before every prune, showing what it would remove, and reports what an image prune removed', async () => {
    requireHarnessEngine();
    await page.goto('/#/settings/prune');
    await expectRouteName(page, 'Prune');
    await page.getByRole('button', { name: 'Prune Containers' }).click();
    const confirm = page.getByRole('dialog', { name: 'Prune Containers?' });
    await confirm
      .getByText(
        'This will remove all stopped containers. Please make sure this is what you want to do before continuing.',
      )
      .waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });

    const tag = `${uniqueName('e2e-prune')}:v1`;
    const dangling = buildImage(tag);
    buildImage(tag);
    made.image.push(tag, dangling);
    // Nothing runs on the first click: the dialog lists what would go and the space it frees, then asks.
    await page.getByRole('button', { name: 'Prune Images' }).click();
    const ask = page.getByRole('dialog', { name: 'Prune Images?' });
    await ask
      .getByTestId('prune-preview')
      .getByText(dangling.replace(/^sha256:/, '').slice(0, 12))
      .waitFor();
    expect(await ask.getByTestId('prune-preview-summary').textContent()).toMatch(
      /^This will remove [1-9]\d* images? and free about [\d.]+ (Bytes|KB|MB|GB):$/,
    );
    expect(exists('image', dangling)).toBe(true);
    await ask.getByRole('button', { name: 'Prune' }).click();
    await notification(/^OK: [1-9]\d* images? deleted\. Space Reclaimed: [\d.]+ (Bytes|KB|MB|GB)$/).waitFor();
    expect(await page.getByTestId('prune-result-images').textContent()).toMatch(/^[1-9]\d* images? deleted\./);
    expect(tryDockerCli(['image', 'inspect', dangling]).status).not.toBe(0);
  });
});
