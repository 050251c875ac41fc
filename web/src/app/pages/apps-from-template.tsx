import { PageHeader } from '../../components/PageHeader';
import { TemplateTabs } from '../../features/templates/components/TemplateTabs';

export default function AppsFromTemplatePage() {
  return (
    <>
      <PageHeader
        title="Deploy from Template"
        subtitle="Pick an app from a template; the deploy form opens pre-filled."
      />
      <TemplateTabs />
    </>
  );
}
