import { Button, type ButtonProps } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { TemplateItem } from '@berth/contract';

/** Deploy: a container template opens the deploy form; a stack template asks for its project's name and values. */
export function DeployItemButton({ item, onDeployStack, ...props }: { item: TemplateItem; onDeployStack: (item: TemplateItem) => void } & ButtonProps) {
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
