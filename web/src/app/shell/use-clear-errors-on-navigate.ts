import { useEffect, useRef } from 'react';
import { notifications, notificationsStore } from '@mantine/notifications';
import { useLocation } from 'react-router-dom';

/**
 * An error notification belongs to the page it happened on: leaving the page closes it (and any
 * still queued), so it never follows the user elsewhere. Success and info notifications stay
 * (e.g. 'web deployed.' shown as the form goes to the apps list) and close on their own.
 */
export function useClearErrorsOnNavigate(): void {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    notifications.updateState(notificationsStore, (list) => list.filter((n) => n.color !== 'red'));
  }, [pathname]);
}
