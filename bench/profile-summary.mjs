// Summarises a V8 .cpuprofile: self and total (inclusive) time by function (name, file:line), and self time by
// package, top N (default 30). LAST_SECONDS=8 keeps only the samples of the profile's last 8 s (the load phase of
// bench/profile-auth.ts, without start-up and account registration).
//   node bench/profile-summary.mjs /tmp/tradelab-prof/CPU.*.cpuprofile [N]
import fs from 'node:fs';
const [file, topArg = '30'] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const selfUs = new Map();
const dt = profile.timeDeltas;
const times = [];
for (let i = 0, t = profile.startTime; i < profile.samples.length; i += 1) times.push((t += dt[i] ?? 0));
const from = process.env.LAST_SECONDS ? profile.endTime - Number(process.env.LAST_SECONDS) * 1e6 : -Infinity;
for (let i = 0; i < profile.samples.length; i += 1) {
  if (times[i] < from) continue;
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const key = (n) => {
  const f = n.callFrame;
  const url = f.url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/').replace(/^node:/, '');
  return `${f.functionName || '(anon)'} ${url}:${f.lineNumber + 1}`;
};
const self = new Map();
const incl = new Map();
for (const [id, us] of selfUs) {
  const n = byId.get(id);
  self.set(key(n), (self.get(key(n)) ?? 0) + us);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + us);
  }
}
const pct = (us) => ((100 * us) / total).toFixed(1).padStart(5) + ' %';
const top = Number(topArg);
console.log(`total sampled ${(total / 1e6).toFixed(2)} s`);
console.log('\nSELF');
for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(pct(us), k);
console.log('\nTOTAL (inclusive)');
for (const [k, us] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, top * 2)) console.log(pct(us), k);
// By package/file bucket
const bucket = new Map();
for (const [id, us] of selfUs) {
  const u = byId.get(id).callFrame.url;
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u);
  const b = m ? m[1] : u.includes('/dist/') ? 'dist/' + u.split('/dist/')[1] : u.startsWith('node:') ? 'node:' + u.slice(5) : u || byId.get(id).callFrame.functionName;
  bucket.set(b, (bucket.get(b) ?? 0) + us);
}
console.log('\nSELF BY PACKAGE / FILE');
for (const [k, us] of [...bucket].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(pct(us), k);
