import { useEffect } from 'react';
import { notificationOf, type NewAlerts } from '../../../shared/alerts.ts';
import { api, inWebHost } from '../../api.ts';
import { call } from '../../queries/call.ts';
import { useNavigation } from '../../router.ts';

/**
 * The window's part in availability alerts: it asks the core to check when it gains the focus;
 * in the web host it shows the desktop notifications itself (the browser's Notification, once the
 * person allowed it in Settings; the desktop app's main process shows its own); and a click on
 * a notification (or the desktop app's 'alerts' command) opens the Alerts screen.
 */
export function useAlertWatch(): void {
  const nav = useNavigation();
  useEffect(() => {
    const onFocus = () => void call('alerts.check', { reason: 'focus' }).catch(() => undefined);
    window.addEventListener('focus', onFocus);
    const offNew = api.on('alerts.new', (news) => {
      if (inWebHost) showNotification(news, () => nav.go({ name: 'alerts' }));
    });
    const offCommand = api.on('app.command', ({ command }) => {
      if (command === 'alerts') nav.go({ name: 'alerts' });
    });
    return () => {
      window.removeEventListener('focus', onFocus);
      offNew();
      offCommand();
    };
  }, [nav]);
}

/** One notification for what arrived together, when the person wants them and the browser allows it. */
function showNotification(news: NewAlerts, open: () => void): void {
  if (
    !news.notify ||
    news.alerts.length === 0 ||
    typeof Notification === 'undefined' ||
    Notification.permission !== 'granted'
  )
    return;
  const { title, body } = notificationOf(news.alerts);
  const shown = new Notification(title, { body });
  shown.onclick = () => {
    window.focus();
    open();
  };
}
