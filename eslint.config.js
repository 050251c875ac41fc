import fs from 'node:fs';
import tseslint from 'typescript-eslint';

/*
 * Boundaries (architecture.md, "The layout"). Each entry reserves some imports for one folder or
 * forbids them in some folders; the message says the rule. ESLint does not merge the options of
 * a rule set by two config blocks for the same file, so the entries are folded below into ONE
 * `@typescript-eslint/no-restricted-imports` (plus `no-restricted-syntax` for `import()` and
 * `require()`) per folder of server/src.
 */
const SERVER_AREAS = {
  config: ['server/src/config.ts', 'server/src/agent-config.ts'],
  root: ['server/src/*.ts'], // app.ts (the composition root), main.ts, context.ts, errors.ts … (config.ts excluded below)
  docker: ['server/src/docker/**/*.ts'],
  compose: ['server/src/compose/**/*.ts'],
  db: ['server/src/db/**/*.ts'],
  lib: ['server/src/lib/**/*.ts'],
  services: ['server/src/services/**/*.ts'],
  plugins: ['server/src/plugins/**/*.ts'],
  routes: ['server/src/routes/**/*.ts'],
  agent: ['server/src/agent/**/*.ts'],
};
const ALL = Object.keys(SERVER_AREAS);
const except = (...owners) => ALL.filter((a) => !owners.includes(a));

const BOUNDARIES = [
  {
    areas: except('docker'),
    modules: ['dockerode', 'docker-modem'],
    message: 'Boundary: only server/src/docker imports dockerode; use the engine interface it exports.',
  },
  {
    areas: except('compose'),
    modules: ['child_process', 'node:child_process'],
    message: 'Boundary: only server/src/compose spawns processes (child_process).',
  },
  {
    areas: except('db'),
    modules: ['better-sqlite3'],
    message: 'Boundary: only server/src/db imports better-sqlite3; use a repository.',
  },
  {
    areas: except('config'),
    modules: ['process', 'node:process'],
    importNames: ['env'],
    message: 'Boundary: only server/src/config.ts reads the environment; take the value from Config.',
  },
  {
    areas: ['services', 'docker', 'compose', 'db', 'lib', 'agent'],
    patterns: ['fastify', 'fastify/*', 'fastify-*', '@fastify/*'],
    allowTypeImports: true,
    // A colocated test may build a Fastify app around the unit it tests.
    exceptTests: true,
    message:
      'Boundary: services/, docker/, compose/, db/ and lib/ never import fastify at runtime (`import type` is fine).',
  },
  {
    areas: ['routes'],
    regex: '^(\\.\\./)+(db|docker|compose)(/|$)',
    message:
      'Boundary: routes never import db/, docker/ or compose/; they get services from buildServices (app-services.ts).',
  },
];

const ENV_MESSAGE = BOUNDARIES.find((b) => b.importNames).message;

function serverAreaConfig(area, tests) {
  const paths = [];
  const patterns = [];
  const syntax = [];
  for (const b of BOUNDARIES.filter((x) => x.areas.includes(area) && !(tests && x.exceptTests))) {
    for (const name of b.modules ?? []) {
      paths.push({ name, message: b.message, ...(b.importNames ? { importNames: b.importNames } : {}) });
      if (b.importNames) continue;
      syntax.push(
        { selector: `ImportExpression[source.value='${name}']`, message: b.message },
        { selector: `CallExpression[callee.name='require'][arguments.0.value='${name}']`, message: b.message },
      );
    }
    if (b.patterns)
      patterns.push({
        group: b.patterns,
        message: b.message,
        ...(b.allowTypeImports ? { allowTypeImports: true } : {}),
      });
    if (b.regex) patterns.push({ regex: b.regex, message: b.message });
  }
  const rules = { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] };
  if (syntax.length) rules['no-restricted-syntax'] = ['error', ...syntax];
  if (area !== 'config') {
    rules['no-restricted-properties'] = ['error', { object: 'process', property: 'env', message: ENV_MESSAGE }];
  }
  const ignores = area === 'root' ? SERVER_AREAS.config : [];
  return {
    name: `boundaries/server/${area}${tests ? '/tests' : ''}`,
    files: tests ? SERVER_AREAS[area].map((g) => g.replace(/\.ts$/, '.test.ts')) : SERVER_AREAS[area],
    ignores: tests ? ignores : [...ignores, '**/*.test.ts'],
    rules,
  };
}

/*
 * Web features import another feature only through its public index.ts (`../../templates`, never
 * `../../templates/api`); shared presentational pieces live in web/src/components.
 */
const WEB_FEATURES = fs
  .readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const WEB_NEVER_SERVER = { group: ['**/server/**', '@berth/server'], message: 'Boundary: web never imports server.' };
/** The shell, router and pages compose features; nothing imports them back. */
const WEB_NEVER_APP = {
  regex: '^(\\.\\./)+app(/|$)',
  message:
    'Boundary: nothing imports web/src/app (the shell, the router and the pages); move what is shared to components/ or lib/.',
};
/** Shared pieces know no feature: what a feature needs of them is passed in. */
const WEB_SHARED_NEVER_FEATURES = {
  regex: '^(\\.\\./)+features(/|$)',
  message: 'Boundary: web/src/components and web/src/lib never import a feature; they are what features share.',
};

function webFeatureConfig(feature) {
  const others = WEB_FEATURES.filter((f) => f !== feature);
  return {
    name: `boundaries/web/features/${feature}`,
    files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            WEB_NEVER_SERVER,
            WEB_NEVER_APP,
            {
              regex: `^(\\.\\./)+(features/)?(${others.join('|')})/.+`,
              message:
                'Boundary: a web feature imports another feature only through its public index.ts (import the folder); shared pieces go to web/src/components.',
            },
          ],
        },
      ],
    },
  };
}

/*
 * Where files may live (issue 31): server/src/services holds one folder per domain, never a flat
 * file, and migrations are one file per version under db/migrations/ (a db/migrations.ts would
 * shadow that folder's index.ts). Any such file fails lint as a whole. (Set last: it replaces the
 * file's other no-restricted-syntax entries, which matter little for a file that must move.)
 */
const PLACEMENT = [
  {
    files: ['server/src/services/*.{ts,tsx}'],
    message: 'Placement: server/src/services holds domain folders only; put this file in services/<domain>/.',
  },
  {
    files: ['server/src/db/migrations.ts'],
    message: 'Placement: a migration is a file of its own in server/src/db/migrations/, listed in its index.ts.',
  },
];

function placementConfig({ files, message }, i) {
  return {
    name: `placement/${i}`,
    files,
    rules: { 'no-restricted-syntax': ['error', { selector: 'Program', message }] },
  };
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.test-env/**', 'web/public/*.js'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      'no-empty': ['error', { allowEmptyCatch: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...ALL.flatMap((area) => [serverAreaConfig(area, false), serverAreaConfig(area, true)]),
  {
    name: 'boundaries/web/app',
    files: ['web/src/*.{ts,tsx}', 'web/src/app/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [WEB_NEVER_SERVER] }] },
  },
  {
    name: 'boundaries/web/shared',
    files: ['web/src/components/**/*.{ts,tsx}', 'web/src/lib/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [WEB_NEVER_SERVER, WEB_NEVER_APP, WEB_SHARED_NEVER_FEATURES] },
      ],
    },
  },
  ...WEB_FEATURES.map(webFeatureConfig),
  ...PLACEMENT.map(placementConfig),
);
