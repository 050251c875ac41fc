import { PageHeader } from '../../components/PageHeader';
import { NewTemplateForm } from '../../features/templates/components/NewTemplateForm';

export default function TemplateNewPage() {
  return (
    <>
      <PageHeader title="New Template" />
      <NewTemplateForm />
    </>
  );
}
