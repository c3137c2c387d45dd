import { notificationOf, type NewAlerts } from '../shared/alerts.ts';

/** What of Electron's `Notification` class is used (main.ts passes it in: only main and the preload import electron). */
export interface NotificationClass {
  isSupported(): boolean;
  new (options: { title: string; body: string }): { on(event: 'click', listener: () => void): unknown; show(): void };
}

/**
 * The desktop app's availability notifications: one for what arrived together (shared/alerts.ts
 * words it, as the web host's window does), when the person wants them and the system can show
 * them. A click brings the window forward on the Alerts screen.
 */
export function showAlertNotification(Notification: NotificationClass, news: NewAlerts, onClick: () => void): void {
  if (!news.notify || news.alerts.length === 0 || !Notification.isSupported()) return;
  const notification = new Notification(notificationOf(news.alerts));
  notification.on('click', onClick);
  notification.show();
}
