#!/usr/bin/env node
// Turns vitest's JSON report into the closing line CI reads: "N passed, N failed[, N skipped]".
//
//   node scripts/test-summary.mjs test-results/vitest.json [--vitest-exit=CODE] [--extra-failure=TEXT]...
//
// Exits 1 when a test failed, a test file failed to load, a check outside vitest failed (each counts
// as one failure in the closing line), vitest itself exited non-zero, or no test
// ran at all. Everything else it prints comes before the closing line, which is always the last.
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const reportPath = args.find((a) => !a.startsWith('--')) ?? 'test-results/vitest.json';
const exitArg = args.find((a) => a.startsWith('--vitest-exit='));
const vitestExit = exitArg ? Number(exitArg.slice('--vitest-exit='.length)) : 0;
// --extra-failure=TEXT (repeatable): something outside vitest failed (lint, typecheck, the web build).
const extraFailures = args
  .filter((a) => a.startsWith('--extra-failure='))
  .map((a) => a.slice('--extra-failure='.length));

const out = (line) => process.stdout.write(`${line}\n`);
const notes = [];
let passed = 0;
let failed = 0;
let skipped = 0;

let report = null;
try {
  report = JSON.parse(fs.readFileSync(reportPath, 'utf8'));
} catch (err) {
  notes.push(
    `test-summary: no readable vitest report at ${reportPath} (${err.code ?? err.message}); vitest did not finish`,
  );
}

const rel = (file) => (file ? path.relative(process.cwd(), file) : '?');
const firstLine = (msg) =>
  String(msg ?? '')
    .split('\n')
    .find((l) => l.trim()) ?? '';

if (report) {
  const failures = [];
  for (const file of report.testResults ?? []) {
    let fileFailed = 0;
    for (const t of file.assertionResults ?? []) {
      switch (t.status) {
        case 'passed':
          passed++;
          break;
        case 'failed':
          failed++;
          fileFailed++;
          failures.push(`  FAIL ${rel(file.name)} > ${t.fullName ?? t.title}: ${firstLine(t.failureMessages?.[0])}`);
          break;
        default: // skipped, pending, todo, disabled
          skipped++;
      }
    }
    // A file that failed with no failing test in it did not load or its hooks threw: one failure.
    if (file.status === 'failed' && fileFailed === 0) {
      failed++;
      failures.push(`  FAIL ${rel(file.name)} (file failed: ${firstLine(file.message) || 'see output above'})`);
    }
  }
  if (failures.length) {
    out('');
    out(`Failed (${failures.length}):`);
    for (const f of failures.slice(0, 100)) out(f.length > 400 ? `${f.slice(0, 400)}…` : f);
    if (failures.length > 100) out(`  … and ${failures.length - 100} more`);
  }
  if (report.success === false && failed === 0) {
    notes.push('test-summary: vitest reported the run as unsuccessful (unhandled errors?); see output above');
  }
}

// Each outside failure (lint, typecheck, the web build) counts as one failed check in the closing
// line, so a reader of that line alone never sees "0 failed" for a failed run.
for (const f of extraFailures) {
  failed++;
  notes.push(`test-summary: FAIL ${f}`);
}
if (vitestExit !== 0) notes.push(`test-summary: vitest exited with code ${vitestExit}`);
if (passed + failed - extraFailures.length === 0)
  notes.push('test-summary: no test ran; a run with zero tests counts as a failure');

const bad =
  failed > 0 ||
  extraFailures.length > 0 ||
  vitestExit !== 0 ||
  passed + failed - extraFailures.length === 0 ||
  (report && report.success === false);
if (notes.length) out('');
for (const n of notes) out(n);
out(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = bad ? 1 : 0;
