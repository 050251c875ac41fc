import { Button, type ButtonProps } from '@mantine/core';
import { Link } from 'react-router-dom';
import { deployApi, projectApi, type TemplateItem } from '@berth/contract';
import { useCan } from '../../../lib/session';

/**
 * Deploy: a container template opens the deploy form; a stack template asks for its project's name
 * and values. Not there for a role that may not deploy.
 */
export function DeployItemButton({
  item,
  onDeployStack,
  ...props
}: { item: TemplateItem; onDeployStack: (item: TemplateItem) => void } & ButtonProps) {
  const allowed = useCan(item.stack ? projectApi.fromTemplate : deployApi.deploy);
  if (!allowed) return null;
  if (item.stack) {
    return (
      <Button {...props} onClick={() => onDeployStack(item)}>
        Deploy
      </Button>
    );
  }
  return (
    <Button {...props} component={Link} to={`/apps/deploy/${item.id}`}>
      Deploy
    </Button>
  );
}
