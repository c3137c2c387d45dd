/**
 * Where focus goes after an alert's action made its own control go away: the first action of the
 * next alert that has one, else the screen's heading (made focusable for this), never the page.
 */
export function focusAfterAlert(list: HTMLElement | null, id: string): void {
  const rows = [...(list?.querySelectorAll<HTMLElement>('li[data-alert-id]') ?? [])];
  const from = rows.findIndex((row) => row.dataset.alertId === id);
  for (const row of rows.slice(from + 1)) {
    const first = row.querySelector<HTMLElement>('.alert-actions button');
    if (first) return first.focus();
  }
  const heading = document.getElementById('screen-heading');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus();
}
