/**
 * In this API an id is a URL on the service's base URL, so a service that moved (the embedded one
 * on another port) still names the same resources under its older addresses. These map an id
 * kept from an older base URL of the *same* service to the current one; nothing else changes.
 */

/** A base URL without trailing slashes: the form ids are built on and compared with. */
export function normalBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/**
 * `ref` on `current` when it lies under one of `formerBases` (the same service's older base
 * URLs); otherwise `ref` unchanged (already current, or another service's id).
 */
export function mapRefToBase(ref: string, formerBases: readonly string[], current: string): string {
  const to = normalBaseUrl(current);
  if (ref === to || ref.startsWith(`${to}/`) || ref.startsWith(`${to}?`)) return ref;
  for (const former of formerBases) {
    const from = normalBaseUrl(former);
    if (from === '' || from === to) continue;
    if (ref === from) return to;
    if (ref.startsWith(`${from}/`) || ref.startsWith(`${from}?`)) return to + ref.slice(from.length);
  }
  return ref;
}

/** Every id of `text` (a kept body) from a former base moved onto `current`. */
export function mapBaseInText(text: string, formerBases: readonly string[], current: string): string {
  const to = normalBaseUrl(current);
  let out = text;
  for (const former of formerBases) {
    const from = normalBaseUrl(former);
    if (from === '' || from === to) continue;
    out = out.split(`${from}/`).join(`${to}/`);
  }
  return out;
}
