import { Stack } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { ChannelsCard, DeliveriesCard, RulesCard } from '../../features/notifications';

/** /settings/notifications */
export default function SettingsNotificationsPage() {
  return (
    <Stack>
      <PageHeader
        title="Notifications"
        subtitle="Be told when something breaks: channels to send through, rules for what to send, and what was sent."
      />
      <ChannelsCard />
      <RulesCard />
      <DeliveriesCard />
    </Stack>
  );
}
