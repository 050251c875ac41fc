import { Alert, Anchor, Code, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { logsApi, type App } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { useEnvironment } from '../../../lib/environment';
import { Section } from '../../../components/Section';
import { formatBytes, formatDate } from '../../../lib/format';
import { useDiagnosis } from '../api/queries';

/** The log around a stop: this long before it, and a little after (the last lines may trail the stop). */
const LOG_BEFORE_MS = 5 * 60_000;
const LOG_AFTER_MS = 5_000;

/** The engine's "never" (FinishedAt of a container that never stopped). */
const NEVER = /^0001-01-01/;

/** Why the app last stopped: shown once it has stopped at least once (exited, or restarted by its policy). */
export function AppDiagnosis({ app }: { app: App }) {
  const finishedAt = typeof app.State.FinishedAt === 'string' ? app.State.FinishedAt : '';
  const stopped = finishedAt !== '' && !NEVER.test(finishedAt);
  if (!stopped || (app.State.Running && !app.RestartCount)) return null;
  return <DiagnosisPanel name={app.name} finishedAt={finishedAt} />;
}

function DiagnosisPanel({ name, finishedAt }: { name: string; finishedAt: string }) {
  const { data: d, error } = useDiagnosis(name, finishedAt);
  const env = useEnvironment();
  const stop = d?.finishedAt ? Date.parse(d.finishedAt) : NaN;
  const around = Number.isFinite(stop)
    ? { since: new Date(stop - LOG_BEFORE_MS).toISOString(), until: new Date(stop + LOG_AFTER_MS).toISOString() }
    : null;
  const logUrl = around
    ? buildUrl(logsApi.appDownload, { env, params: { name }, query: { ...around, timestamps: '1' } })
    : null;
  const page = `/apps/${encodeURIComponent(name)}`;
  return (
    <Section title="Why it stopped">
      {error ? (
        <Text c="red" size="sm">
          The diagnosis could not be read: {error instanceof Error ? error.message : String(error)}
        </Text>
      ) : !d ? (
        <Text c="dimmed" size="sm">
          Reading…
        </Text>
      ) : (
        <Stack gap="sm" data-testid="diagnosis">
          <Alert color={d.kind === 'done' ? 'blue' : 'red'} title={d.summary}>
            {d.oneLine.slice(d.summary.length).trim()}
          </Alert>
          <Group gap="lg">
            <Text size="sm">Exit code {d.exitCode ?? '-'}</Text>
            <Text size="sm">Out of memory: {d.oomKilled ? 'yes' : 'no'}</Text>
            <Text size="sm">Restarts: {d.restartCount}</Text>
            <Text size="sm">Deaths in the last hour: {d.restartsLastHour}</Text>
            {d.finishedAt && <Text size="sm">Stopped {formatDate(d.finishedAt)}</Text>}
            {around && (
              <Anchor
                size="sm"
                component={Link}
                to={`${page}/logs?${new URLSearchParams(around).toString()}`}
                data-testid="diagnosis-logs-at"
              >
                Logs of the 5 minutes before the stop
              </Anchor>
            )}
            {d.finishedAt && (
              <Anchor
                size="sm"
                component={Link}
                to={`${page}/stats?${new URLSearchParams({ at: d.finishedAt }).toString()}`}
                data-testid="diagnosis-stats-at"
              >
                Stats at the stop
              </Anchor>
            )}
            {logUrl && (
              <Anchor size="sm" href={logUrl} download data-testid="diagnosis-log-link">
                Download that log
              </Anchor>
            )}
          </Group>
          {d.memory.samples.length > 0 && (
            <Text size="sm" data-testid="diagnosis-memory">
              Memory before the stop: {d.memory.samples.map((m) => formatBytes(m.bytes)).join(' → ')}
              {d.memory.limit ? ` (limit ${formatBytes(d.memory.limit)})` : ' (no limit)'}
            </Text>
          )}
          {d.events.length > 0 && (
            <Text size="sm" data-testid="diagnosis-events">
              Events around the stop:{' '}
              {d.events
                .map(
                  (e) =>
                    `${new Date(e.time).toLocaleTimeString()} ${e.action}${e.attributes.signal ? ` (signal ${e.attributes.signal})` : ''}`,
                )
                .join(', ')}
            </Text>
          )}
          {d.error && <Text size="sm" c="red">{`Engine error: ${d.error}`}</Text>}
          <Text size="sm" fw={500}>
            Last lines before the stop
          </Text>
          {d.lastLines.length === 0 ? (
            <Text c="dimmed" size="sm">
              The log is empty.
            </Text>
          ) : (
            <Code block data-testid="diagnosis-lines" style={{ maxHeight: 320, overflow: 'auto' }}>
              {d.lastLines.map((l) => l.text).join('\n')}
            </Code>
          )}
        </Stack>
      )}
    </Section>
  );
}
