import { Text } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { TemplateDetails } from '../../features/templates/components/TemplateDetails';

export default function TemplateDetailsPage() {
  const id = Number(useParams().templateId);
  if (!Number.isInteger(id) || id <= 0) return <Text c="red">Not a template id.</Text>;
  return <TemplateDetails id={id} />;
}
