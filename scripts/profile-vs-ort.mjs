#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
// Where onnxtool's time goes beside ONNX Runtime's, operator type by type and node by node: runs
// `onnxtool run --profile` and ORT with its profiler (../shared/tools/ort's onnxruntime-node) on
// the same model, thread count and number of runs, and prints both. ORT's kernels are matched to
// our nodes through the graph (read with `onnxtool convert M x.json`): ORT names a fused kernel
// after one of its nodes or its output value, often with a suffix ("conv1_relu_nchwc",
// "r1_nchwc"); the name, or the name less its `_suffix`es, is taken as a node or else a value,
// and followed back through first inputs to the nearest node our profile times (the node that
// absorbed it). ORT's profiler adds its own overhead, and ORT's layout changes
// (ReorderInput/ReorderOutput) have no node of ours.
// Asserts nothing; a development aid.
//
//   node scripts/profile-vs-ort.mjs MODEL.onnx [--threads 2] [--runs 50] [--top 25]
//
// BUILD_DIR (default build) picks onnxtool; ONNXTOOL_SHARED (default ../shared) the shared folder.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const opt = { threads: 2, runs: 50, top: 25 };
let model = null;
for (let i = 0; i < args.length; ++i) {
  const a = args[i];
  if (a === '--threads') opt.threads = Number(args[++i]);
  else if (a === '--runs') opt.runs = Number(args[++i]);
  else if (a === '--top') opt.top = Number(args[++i]);
  else if (a === '-h' || a === '--help') {
    console.log('usage: node scripts/profile-vs-ort.mjs MODEL.onnx [--threads N] [--runs N] [--top N]');
    process.exit(0);
  } else if (!model) model = path.resolve(a);
  else {
    console.error(`profile-vs-ort: unexpected argument ${a}`);
    process.exit(2);
  }
}
if (!model) {
  console.error('usage: node scripts/profile-vs-ort.mjs MODEL.onnx [--threads N] [--runs N] [--top N]');
  process.exit(2);
}
const shared = path.resolve(root, process.env.ONNXTOOL_SHARED || '../shared');
const onnxtool = path.resolve(root, process.env.BUILD_DIR || 'build', 'onnxtool');
const ortDir = path.join(shared, 'tools', 'ort');
if (!fs.existsSync(path.join(ortDir, 'node_modules'))) {
  console.error(`profile-vs-ort: run ${ortDir}/setup.sh first`);
  process.exit(2);
}
const ort = createRequire(path.join(ortDir, 'package.json'))('onnxruntime-node');

// ORT: per-node kernel milliseconds per run, from its profile file.
async function ortTimes() {
  const prefix = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ortprof-')), 'p');
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: opt.threads, interOpNumThreads: 1, enableProfiling: true,
    profileFilePrefix: prefix });
  const feeds = {};
  // Input shapes and types from ORT's metadata (symbolic or unknown dims: 1).
  for (const meta of session.inputMetadata) {
    const dims = (meta.shape || []).map((d) => (typeof d === 'number' && d > 0 ? d : 1));
    const n = dims.reduce((a, b) => a * b, 1);
    const type = meta.type || 'float32';
    const data = type === 'float32' ? Float32Array.from({ length: n }, () => Math.random())
      : type === 'int64' ? new BigInt64Array(n) : type === 'int32' ? new Int32Array(n)
      : new Float32Array(n);
    feeds[meta.name] = new ort.Tensor(type, data, dims);
  }
  for (let i = 0; i < 3; ++i) await session.run(feeds);
  for (let i = 0; i < opt.runs; ++i) await session.run(feeds);
  await session.endProfiling();  // writes PREFIX_<date>.json (the call returns no name)
  const dir = path.dirname(prefix);
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.json'));
  if (!file) throw new Error(`ORT wrote no profile in ${dir}`);
  const events = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').length;
  const nodes = new Map(), types = new Map();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const name = e.name.slice(0, -'_kernel_time'.length), ms = e.dur / 1000 / runs;
    nodes.set(name, (nodes.get(name) || 0) + ms);
    const op = e.args && e.args.op_name ? e.args.op_name : '?';
    types.set(op, (types.get(op) || 0) + ms);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return { nodes, types };
}

// onnxtool: the same from `run --profile`'s JSON.
function ourTimes() {
  const out = execFileSync(onnxtool, ['--json', '--threads', String(opt.threads), 'run', model,
    '--random-inputs', '--bench', String(opt.runs), '--profile', '--top', '1000000'],
    { maxBuffer: 1 << 28 });
  const profile = JSON.parse(out.toString()).profile;
  // Main-graph nodes only: a body node's time is also in its If/Loop/Scan node.
  const nodes = profile.nodes.filter((n) => !n.depth).map((n) => {
    const m = /"([^"]*)" \((\w+)\)$/.exec(n.node);
    return { name: m ? m[1] : '', op: n.op_type, ms: n.ms, label: n.node };
  });
  return { nodes, types: profile.op_types };
}

const theirs = await ortTimes();
const ours = ourTimes();
const total = (m) => [...m.values()].reduce((a, b) => a + b, 0);
console.log(`per run, ${opt.threads} threads, ${opt.runs} runs`);
console.log(`onnxtool ${ours.types.reduce((a, t) => a + t.ms, 0).toFixed(3)} ms in nodes, ` +
  `ORT ${total(theirs.types).toFixed(3)} ms in kernels (profiled)`);
console.log('\noperator type            onnxtool ms       ORT ms');
const opNames = new Set([...ours.types.map((t) => t.op_type), ...theirs.types.keys()]);
const rows = [...opNames].map((op) => {
  const o = ours.types.find((t) => t.op_type === op);
  return [op, o ? o.ms : 0, theirs.types.get(op) || 0];
}).sort((a, b) => Math.max(b[1], b[2]) - Math.max(a[1], a[2]));
for (const [op, o, t] of rows)
  console.log(`${op.padEnd(22)} ${o.toFixed(3).padStart(12)} ${t.toFixed(3).padStart(12)}`);
// The model's nodes by name and by output value, to follow ORT's names back to ours.
function modelGraph() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pvo-'));
  const file = path.join(dir, 'model.json');
  try {
    execFileSync(onnxtool, ['-q', 'convert', model, file], { stdio: ['ignore', 'ignore', 'inherit'] });
    return JSON.parse(fs.readFileSync(file, 'utf8')).graph;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const graph = modelGraph();
const byName = new Map(), producer = new Map();
for (const n of graph.node || []) {
  if (n.name) byName.set(n.name, n);
  for (const o of n.output || []) producer.set(o, n);
}
const timed = new Map(ours.nodes.filter((n) => n.name).map((n) => [n.name, n]));
// Our timed node an ORT kernel name stands for, or null.
function ourNodeOf(ortName) {
  const parts = ortName.split('_');
  for (let cut = parts.length; cut > 0; --cut) {
    const key = parts.slice(0, cut).join('_');
    let node = byName.get(key) || producer.get(key);
    for (let hops = 0; node && hops < 64; ++hops) {
      if (timed.has(node.name)) return timed.get(node.name);
      node = producer.get((node.input || [])[0]);
    }
  }
  return null;
}
const ortByOurs = new Map();
for (const [k, ms] of theirs.nodes) {
  const n = ourNodeOf(k);
  if (n) ortByOurs.set(n.name, (ortByOurs.get(n.name) || 0) + ms);
}
const matched = ours.nodes.filter((n) => ortByOurs.has(n.name))
  .map((n) => ({ ...n, ort: ortByOurs.get(n.name) }))
  .sort((a, b) => (b.ms - b.ort) - (a.ms - a.ort));
console.log(`\n${matched.length} nodes matched; the ${opt.top} with the most time over ORT's:`);
for (const n of matched.slice(0, opt.top))
  console.log(`${n.label.padEnd(52)} ${n.ms.toFixed(3).padStart(8)} ${n.ort.toFixed(3).padStart(8)}`);
