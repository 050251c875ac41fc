import { TemplateVariablesForm } from '../../features/variables/components/TemplateVariablesForm';

export default function SettingsTemplateVariablesPage() {
  return <TemplateVariablesForm />;
}
