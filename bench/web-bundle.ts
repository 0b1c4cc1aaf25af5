/**
 * The web app's weight as a browser downloads it: each built file under dist/web/assets, raw and gzip
 * (level 9, as a CDN or reverse proxy would send it). Run after `npm run build`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const assets = path.resolve('dist/web/assets');
const files = readdirSync(assets).filter((name) => /\.(js|css)$/.test(name));
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
let raw = 0;
let gzip = 0;
console.log('\nweb app bundle (dist/web/assets)');
for (const name of files.sort()) {
  const content = readFileSync(path.join(assets, name));
  const zipped = gzipSync(content, { level: 9 }).length;
  raw += content.length;
  gzip += zipped;
  console.log(`  ${name.padEnd(36)} ${kib(content.length).padStart(10)} raw ${kib(zipped).padStart(10)} gzip`);
}
console.log(`  ${'total'.padEnd(36)} ${kib(raw).padStart(10)} raw ${kib(gzip).padStart(10)} gzip`);
