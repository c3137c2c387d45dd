/** The URL a fetch was called with, whichever form it came in (`String()` of a Request is "[object Request]"). */
export function urlOf(input: string | URL | Request): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}
