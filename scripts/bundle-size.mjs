// Prints the gzipped size of the built renderer (dist/renderer): every file gzipped at level 9,
// as a browser would fetch it. Run `npm run build:renderer` first.
// Output: one JSON line {"files":N,"rawBytes":R,"gzipBytes":G,"gzipKB":K} (K = G / 1024, one decimal);
// with --text: "renderer: N files, R bytes, G bytes gzipped (K KB)". Exit 1 when nothing is built.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const DIR = fileURLToPath(new URL('../dist/renderer', import.meta.url));

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

let files;
try {
  files = filesUnder(DIR);
} catch {
  console.error(`No renderer at ${DIR}: run npm run build:renderer first.`);
  process.exit(1);
}
let rawBytes = 0;
let gzipBytes = 0;
for (const file of files) {
  const bytes = readFileSync(file);
  rawBytes += bytes.length;
  gzipBytes += gzipSync(bytes, { level: 9 }).length;
}
const gzipKB = Math.round((gzipBytes / 1024) * 10) / 10;
if (process.argv.includes('--text'))
  console.log(`renderer: ${files.length} files, ${rawBytes} bytes, ${gzipBytes} bytes gzipped (${gzipKB} KB)`);
else console.log(JSON.stringify({ files: files.length, rawBytes, gzipBytes, gzipKB }));
