// The C2 fixture's stand-in for window.marquee: a signed-in subscriber with a 500-entry instant
// queue and predicted ratings, answered at once (the benchmark measures rendering, not I/O).
// Imported before the app's modules so renderer/api.ts picks it up.
const SIZE = 500;
const ART =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="3"><rect width="2" height="3" fill="#888"/></svg>',
  );
const WORDS = [
  'Night',
  'Star',
  'River',
  'Glass',
  'Winter',
  'Last',
  'Silent',
  'Golden',
  'Broken',
  'Hidden',
  'Paper',
  'Iron',
];

function item(i) {
  const ref = `http://bench.invalid/catalog/titles/movies/${70000000 + i}`;
  return {
    ref,
    type: 'movie',
    title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i + 1}`,
    shortTitle: `T${i}`,
    year: 1950 + ((i * 13) % 75),
    runtimeSeconds: 4800 + ((i * 97) % 3600),
    averageRating: 1 + ((i * 31) % 40) / 10,
    boxArt: { small: ART, medium: ART, large: ART },
    genres: ['Drama'],
    maturity: 'PG',
    formats: ['instant'],
    itemRef: `http://bench.invalid/users/u/queues/instant/available/${i + 1}/${70000000 + i}`,
    position: i + 1,
    updated: 1700000000 + i,
    availability: i % 9 === 0 ? 'available until 2027-03-01' : 'available now',
    format: 'instant',
  };
}

export const benchQueue = {
  kind: 'instant',
  view: 'all',
  etag: '1',
  total: SIZE,
  items: Array.from({ length: SIZE }, (_, i) => item(i)),
  pendingEdits: 0,
};

function answer(name, input) {
  if (name === 'queue.list')
    return input.kind === 'instant' ? benchQueue : { ...benchQueue, kind: 'disc', total: 0, items: [] };
  if (name === 'ratings.get')
    return input.refs.map((ref, i) => ({ title: { ref }, userRating: null, predicted: 1 + ((i * 17) % 40) / 10 }));
  return undefined;
}

window.marquee = new Proxy(
  {},
  {
    get(_, name) {
      if (name === 'on') return () => () => {};
      return async (input) => {
        const value = answer(String(name), input ?? {});
        return value === undefined
          ? { ok: false, error: { kind: 'not_found', message: `${String(name)} is not part of the benchmark` } }
          : { ok: true, value };
      };
    },
  },
);
