import type { z } from 'zod';

/**
 * A validation problem of an operation's input (shared/ipc.ts) in words a person can act on:
 * "Search for at most 500 characters.", never "Too big: expected string to have <=500 characters".
 * A schema's own message (given where it is declared) wins; these words cover the rest.
 */

const LABELS: Record<string, string> = {
  term: 'Search',
  ref: 'The title or person',
  refs: 'The list of titles',
  kind: 'The queue',
  position: 'The position',
  start: 'The first result',
  max: 'Results per page',
  view: 'The view',
  format: 'The format',
  rating: 'The rating',
  genre: 'The genre',
  type: 'The type',
  scheme: 'The category',
  pin: 'The PIN',
  mode: 'The sign-in mode',
  id: 'The profile',
  label: 'The name',
  baseUrl: 'The service address',
  consumerKey: 'The consumer key',
  consumerSecret: 'The consumer secret',
};

type Issue = z.core.$ZodIssue;

export function inWords(issue: Issue): string {
  if (issue.path.length === 0)
    return issue.code === 'invalid_type'
      ? 'This request to Marquee had no details where some were expected.'
      : `${issue.message}.`;
  if (!issue.message.startsWith('Too ') && !issue.message.startsWith('Invalid ')) return issue.message; // the schema's own words
  const label = labelOf(issue.path);
  switch (issue.code) {
    case 'too_big':
      return issue.origin === 'string'
        ? `${label} may be at most ${issue.maximum} characters.`
        : issue.origin === 'array'
          ? `${label} may have at most ${issue.maximum} entries.`
          : `${label} may be at most ${issue.maximum}.`;
    case 'too_small':
      return issue.origin === 'string'
        ? `${label} cannot be empty.`
        : issue.origin === 'array'
          ? `${label} needs at least ${issue.minimum} ${issue.minimum === 1 ? 'entry' : 'entries'}.`
          : `${label} must be at least ${issue.minimum}.`;
    case 'invalid_value':
      return `${label} must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'invalid_type':
      return /received undefined/.test(issue.message)
        ? `${label} is missing.`
        : `${label} must be ${article(issue.expected)}.`;
    case 'invalid_format':
      return `${label} is not in the expected form.`;
    default:
      return `${label} is not valid.`;
  }
}

function labelOf(path: PropertyKey[]): string {
  const key = [...path].reverse().find((p): p is string => typeof p === 'string') ?? '';
  return LABELS[key] ?? `The value "${key}"`;
}

function article(expected: string): string {
  if (expected === 'int') return 'a whole number';
  if (expected === 'array') return 'a list';
  if (expected === 'object') return 'a set of details';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
