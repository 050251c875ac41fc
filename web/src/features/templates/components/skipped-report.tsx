import { List, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TemplateWriteResult } from '@berth/contract';
import { notifySuccess } from '../../../lib/notify';

const SHOWN = 10;

/**
 * After a create or refresh: a success line, plus (when the server skipped entries it could not
 * read) a notification that stays until closed, naming each skipped entry and why.
 */
export function reportTemplateWrite(result: TemplateWriteResult, verb: 'added' | 'updated'): void {
  notifySuccess(
    `Template '${result.title}' ${verb} with ${result.item_count} item${result.item_count === 1 ? '' : 's'}.`,
  );
  if (result.skipped.length === 0) return;
  notifications.show({
    color: 'yellow',
    autoClose: false,
    withCloseButton: true,
    title: `${result.skipped.length} catalogue entr${result.skipped.length === 1 ? 'y was' : 'ies were'} skipped`,
    message: (
      <>
        <List size="sm" spacing={2} aria-label="Skipped entries">
          {result.skipped.slice(0, SHOWN).map((s) => (
            <List.Item key={s.index}>
              #{s.index + 1} {s.title ? `'${s.title}'` : '(untitled)'}: {s.reason}
            </List.Item>
          ))}
        </List>
        {result.skipped.length > SHOWN && <Text size="sm">… and {result.skipped.length - SHOWN} more.</Text>}
      </>
    ),
  });
}
