import { notifications } from '@mantine/notifications';
import { ApiError } from './api-client';

/** Spec format for failures: '{statusText}: {detail}'. */
export function errorMessage(err: unknown): string {
  return err instanceof ApiError
    ? `${err.statusText}: ${err.detail}`
    : err instanceof Error
      ? `Error: ${err.message}`
      : `Error: ${String(err)}`;
}

/** A failure as a notification in the error colour. */
export function notifyError(err: unknown, opts: { autoClose?: number | false } = {}): void {
  const message = errorMessage(err);
  notifications.show({ color: 'red', message, autoClose: opts.autoClose ?? 8000, withCloseButton: true });
}

/** Spec format for info and success: '{statusText}: {info}'. */
export function notifySuccess(info: string, statusText = 'OK'): void {
  notifications.show({ color: 'green', message: `${statusText}: ${info}`, autoClose: 4000 });
}

export function notifyInfo(info: string, statusText = 'Info'): void {
  notifications.show({ color: 'blue', message: `${statusText}: ${info}`, autoClose: 4000 });
}

/** A plain snackbar without a status prefix ('Copied to clipboard', 'Saved'). */
export function notifyPlain(message: string, color = 'green', autoClose: number | false = 3000): void {
  notifications.show({ color, message, autoClose });
}
