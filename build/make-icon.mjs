// Draws build/icon.png (512×512) from the shapes of build/icon.svg, with no image library:
// `node build/make-icon.mjs`. Keep the two in step when the icon changes.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 512;
const SS = 4; // supersampling per axis

const hex = (h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];
const inRoundRect = (x, y, rx, ry, w, h, r) => {
  if (x < rx || y < ry || x > rx + w || y > ry + h) return false;
  const cx = Math.min(Math.max(x, rx + r), rx + w - r);
  const cy = Math.min(Math.max(y, ry + r), ry + h - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const inPolygon = (x, y, pts) => {
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i];
    const [xj, yj] = pts[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};
const M = [
  [160, 316],
  [160, 196],
  [190, 196],
  [256, 268],
  [322, 196],
  [352, 196],
  [352, 316],
  [322, 316],
  [322, 246],
  [256, 316],
  [190, 246],
  [190, 316],
];
const bulbs = [150, 362].flatMap((cy) => [112, 160, 208, 256, 304, 352, 400].map((cx) => [cx, cy]));

/** The colour at one point, painted back to front like the SVG; null is transparent. */
function paint(x, y) {
  let c = null;
  if (inRoundRect(x, y, 16, 16, 480, 480, 96)) {
    const t = (y - 16) / 480;
    const [a, b] = [hex('#2a2d35'), hex('#121418')];
    c = a.map((v, i) => v + (b[i] - v) * t);
  }
  if (inRoundRect(x, y, 72, 136, 368, 240, 28)) c = hex('#e50914');
  if (inRoundRect(x, y, 100, 164, 312, 184, 12)) c = hex('#1a1c21');
  if (bulbs.some(([cx, cy]) => (x - cx) ** 2 + (y - cy) ** 2 <= 81)) c = hex('#ffd166');
  if (inPolygon(x, y, M)) c = hex('#f4f1ea');
  return c;
}

const rows = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let py = 0; py < SIZE; py++) {
  rows[py * (SIZE * 4 + 1)] = 0; // filter: none
  for (let px = 0; px < SIZE; px++) {
    let r = 0,
      g = 0,
      b = 0,
      a = 0;
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const c = paint(px + (sx + 0.5) / SS, py + (sy + 0.5) / SS);
        if (c) {
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      }
    }
    const o = py * (SIZE * 4 + 1) + 1 + px * 4;
    rows[o] = a ? Math.round(r / a) : 0;
    rows[o + 1] = a ? Math.round(g / a) : 0;
    rows[o + 2] = a ? Math.round(b / a) : 0;
    rows[o + 3] = Math.round((255 * a) / (SS * SS));
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
const png = Buffer.concat([
  Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(rows, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('./icon.png', import.meta.url), png);
console.log(`wrote build/icon.png (${png.length} bytes)`);
