import { notifications } from '@mantine/notifications';
import { TOAST_FAILURE_MS, TOAST_SUCCESS_MS } from '../../common/limits';

// Generic toasts (spec §9: success 3000 ms, failure 4000 ms). Works outside React, so the API client can use it.

export function notifySuccess(message: string, autoClose: number = TOAST_SUCCESS_MS): void {
  notifications.show({ message, color: 'teal', autoClose });
}

export function notifyFailure(message: string, autoClose: number = TOAST_FAILURE_MS): void {
  notifications.show({ message, color: 'red', autoClose });
}
