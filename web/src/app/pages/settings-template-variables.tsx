import { variablesApi } from '@berth/contract';
import { EditableBy } from '../../components/RoleGate';
import { TemplateVariablesForm } from '../../features/variables/components/TemplateVariablesForm';

export default function SettingsTemplateVariablesPage() {
  return (
    <EditableBy route={variablesApi.save}>
      <TemplateVariablesForm />
    </EditableBy>
  );
}
