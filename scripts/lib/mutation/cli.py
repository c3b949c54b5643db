"""scripts/mutate's command line: the options (parse_args, its --help the script's
docstring), the mutants they choose, the run's phases and its report and exit code (main)."""
import argparse
import fnmatch
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.mutation.catalogue import catalogue, load_equivalent, select, since_mutants  # noqa: E402
from lib.mutation.operators import NEW_OPS, OPERATORS  # noqa: E402
from lib.mutation.python_ops import python_sources  # noqa: E402
from lib.mutation.report import report  # noqa: E402
from lib.mutation.runner import Runner  # noqa: E402
from lib.mutation.settings import (CATALOGUE_SIZE, GROUP_FILES, GROUPS, PY_CATALOGUE_SIZE,  # noqa: E402
                                   PY_GROUPS, ROOT, SINCE_SOURCES, SOURCES)


def switched_phase(runner, runnable, todo, groups, done, results_path, start):
    """--since: the C++ mutants with a switched form, one build and a traced baseline
    for them all, then each mutant's reaching tests; returns the mutants left to build
    one by one (the Python ones, and the lines that do not compile switched).  The
    switches are numbered over every runnable mutant, so --continue builds the same
    text (ccache's hits) and reuses the trace."""
    cpp = [m for m in todo if not m.get("python")]
    runner.schema_apply([m for m in runnable if not m.get("python")])
    if not runner.switch or not runner.schema_build():
        return todo
    runner.index_tests()
    names = {}
    for m in runnable:
        if m["id"] in runner.switch:
            labels = [g for g in groups if g not in PY_GROUPS and g != "asan" and
                      (g not in GROUP_FILES or any(fnmatch.fnmatch(m["file"], f) for f in GROUP_FILES[g]))]
            names.update(dict.fromkeys(runner.selected_tests(m, labels)))
    switched = [m for m in todo if m["id"] in runner.switch]
    print(f"switches: {len(switched)} of {len(cpp)} C++ mutants switched on {len(runner.switch_lines)} lines; "
          f"tracing {len(names)} tests", flush=True)
    runner.schema_trace(list(names))
    with open(results_path, "a") as log:
        for i, m in enumerate(switched, 1):
            r = runner.schema_mutant(m)
            done[r["id"]] = r
            log.write(json.dumps(r) + "\n")
            log.flush()
            how = (f"killed by {', '.join(r['killed_by'])}" if r["status"] == "killed" else
                   r["status"].upper() + ("" if r["tests"] else " (no test reaches it)"))
            print(f"[switched {i}/{len(switched)}] {m['file']}:{m['line']} {m['op']}: {how} "
                  f"({len(r['tests'])} tests, {r['seconds']} s; {(time.time() - start) / 60:.0f} min so far)", flush=True)
    return [m for m in todo if m["id"] not in runner.switch]


def parse_args(doc):
    """The command line, as (parser, arguments); doc: scripts/mutate's docstring, its --help."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(doc.split("\n")[2:]))
    ap.add_argument("--sample", type=int, metavar="N",
                    help="run N mutants drawn with --seed (default: all); with --since or --commits, "
                         "N of the added lines' mutants: a sampled score, said so in the report")
    ap.add_argument("--seed", type=int, default=1, help="seed of --sample (default 1)")
    ap.add_argument("--ids", nargs="+", metavar="ID",
                    help="only these mutants (ids of --list or a report): the survivors of a run, again")
    ap.add_argument("--size", type=int, default=CATALOGUE_SIZE, metavar="K",
                    help=f"catalogue size (default {CATALOGUE_SIZE}: about an hour on 2 cores)")
    ap.add_argument("--py-size", type=int, default=PY_CATALOGUE_SIZE, metavar="K",
                    help=f"lines of the Python scripts in the catalogue (default {PY_CATALOGUE_SIZE})")
    ap.add_argument("--everything", action="store_true",
                    help="every candidate mutant instead of the catalogue (several thousand: hours)")
    ap.add_argument("--files", nargs="+", metavar="GLOB", help="only mutants of these files (fnmatch on the path)")
    ap.add_argument("--ops", nargs="+", choices=sorted(OPERATORS), help="only these operators")
    ap.add_argument("--list", action="store_true", help="print the catalogue (id, file:line, operator, change) and exit")
    ap.add_argument("--all-groups", action="store_true", help="run every group on every mutant (per-group scores)")
    ap.add_argument("--no-asan", action="store_true", help="skip the ASan+UBSan fuzz replay group")
    ap.add_argument("--resume", action="store_true", help="keep DIR/results.jsonl: skip the mutants already killed, run the rest again")
    ap.add_argument("--continue", dest="cont", action="store_true",
                    help="keep DIR/results.jsonl whole: run only the mutants with no result yet "
                         "(a long run cut short; --resume later re-runs the survivors)")
    ap.add_argument("--out", default="out/mutate", metavar="DIR", help="work and report directory (default out/mutate)")
    ap.add_argument("--min-score", type=float, metavar="PCT", help="exit 1 when the score is below PCT")
    ap.add_argument("--timeout-scale", type=float, default=3.0, help="a group times out at this multiple of its baseline time")
    ap.add_argument("--report", action="store_true",
                    help="write DIR/report.md from DIR/results.jsonl and exit: nothing built or run (an interrupted run)")
    ap.add_argument("--since", metavar="REV",
                    help="every mutant (all operators, no catalogue) of the lines added since REV, committed or not "
                         "(and of untracked files); C++ of core/neffbar and core/cli, the Python scripts")
    ap.add_argument("--commits", nargs="+", metavar="REV",
                    help="as --since, on the lines of HEAD that git blame attributes to these commits "
                         "(an issue's own commits, when other work landed between them)")
    ap.add_argument("--all-tests", action="store_true",
                    help="--since or --sample: every group on every mutant as in the catalogue mode (after "
                         "--since's probe), instead of the tests that can see the mutant: a final confirmation")
    args = ap.parse_args()

    return ap, args


def chosen_mutants(ap, args):
    """(mutants, candidates, equivalent): the mutants the options choose, every candidate of
    the sources (for the equivalent entries' check) and mutate.equivalent's entries."""
    if args.since and args.commits:
        ap.error("--since and --commits choose the lines two ways: give one")
    if args.commits:
        args.since = "the commits " + " ".join(args.commits)  # --since's run on the blamed lines
    if args.since:
        if args.everything:
            ap.error("--since takes every mutant of the added lines: not with --everything")
        try:
            mutants, _ = since_mutants(ROOT, args.since, args.commits)
        except ValueError as e:
            ap.error(f"{'--commits' if args.commits else '--since ' + args.since}: {e}")
        candidates = catalogue(ROOT, SINCE_SOURCES) + catalogue(ROOT, python_sources(ROOT), python=True)
    else:
        cpp = catalogue(ROOT, SOURCES)
        py = catalogue(ROOT, python_sources(ROOT), python=True)
        candidates = cpp + py
        mutants = candidates if args.everything else select(cpp, args.size) + select(py, args.py_size)
    equivalent = load_equivalent()
    if args.files:
        mutants = [m for m in mutants if any(fnmatch.fnmatch(m["file"], g) for g in args.files)]
    if args.ops:
        mutants = [m for m in mutants if m["op"] in args.ops]
    if args.ids:
        unknown_ids = set(args.ids) - {m["id"] for m in mutants}
        if unknown_ids:
            ap.error(f"--ids: no such mutant among those chosen: {' '.join(sorted(unknown_ids))}")
        mutants = [m for m in mutants if m["id"] in set(args.ids)]
    return mutants, candidates, equivalent


def earlier_results(args, results_path):
    """DIR/results.jsonl's results that --resume, --continue or --report keep, by id; a
    fresh run removes the file."""
    done = {}
    if (args.resume or args.cont) and results_path.exists():
        for raw in results_path.read_text().splitlines():
            r = json.loads(raw)
            if args.cont or r["status"] == "killed":  # --resume: the rest run again, a test may have been added
                done[r["id"]] = r
    elif args.report and results_path.exists():
        for raw in results_path.read_text().splitlines():
            r = json.loads(raw)
            done[r["id"]] = r
    elif results_path.exists():
        results_path.unlink()
    return done


def build_and_baseline(runner, runnable, todo, groups, done, results_path, start, python_only):
    """Builds the trees and times the tests the mutants will run (with --since the
    switched mutants run here too); returns the mutants left to build one by one."""
    runner.sync()
    runner.configure()
    if runner.select and not python_only:
        todo = switched_phase(runner, runnable, todo, groups, done, results_path, start)
        todo.sort(key=lambda m: not m.get("python"))  # seconds each, before the builds of minutes
        runner.sync()  # the trees as the checkout again: the rest are built one by one
    if runner.select:  # the unmutated tree builds; only the tests the mutants will run are timed
        t0 = time.time()
        runner.baseline([g for g in groups if g == "asan"], build=not python_only)
        runner.index_tests()
        labels = {}
        for m in todo:
            labels.setdefault(m["file"], (m, PY_GROUPS if m.get("python") else
                                          [g for g in groups if g not in PY_GROUPS and g != "asan" and
                                           (g not in GROUP_FILES or any(fnmatch.fnmatch(m["file"], f)
                                                                        for f in GROUP_FILES[g]))]))
        union = {}
        for f, (m, ls) in sorted(labels.items()):
            names = runner.selected_tests(m, ls) or ([n for n in runner.tests if set(runner.tests[n][0]) & set(ls)]
                                                     if m.get("python") else [])
            print(f"selection: {f}: {len(names)} tests", flush=True)
            union.update(dict.fromkeys(names))
        if python_only:
            runner.build_programs(list(union))
        runner.baseline_selected(list(union), build=False)
        py_tests = {n for f, (m, ls) in labels.items() if m.get("python") for n in runner.selected_tests(m, ls)}
        if py_tests:
            runner.py_trace(sorted(py_tests))
        print(f"baseline: {time.time() - t0:.0f} s in all", flush=True)
    else:
        if python_only:  # nothing else is built: what the self-tests run (the CLI) is
            runner.index_tests()
            runner.build_programs([n for n, (labels, _) in runner.tests.items() if set(labels) & set(PY_GROUPS)])
        runner.baseline(groups, build=not python_only)
    return todo


def since_summary(args, mutants, runnable, results, equivalent):
    """--since's closing line: the counts, the score and the minutes."""
    n_eq = sum(m["id"] in equivalent for m in mutants)
    n_killed = sum(r["status"] == "killed" for r in results)
    n_surv = sum(r["status"] == "survived" and r["id"] not in equivalent for r in results)
    counted_ = n_killed + n_surv
    minutes = sum(r.get("seconds", 0) for r in results) / 60  # the mutants' time; the baseline's is apart
    n_sw = sum(bool(r.get("switched")) for r in results)
    sampled = (f" (SAMPLED: {len(runnable)} drawn with --seed {args.seed}; the rest not run, so no line is "
               f"known to be tested)" if args.sample is not None else "")
    summary = (f"since {args.since}: {len(mutants)} mutants{sampled}, {n_killed} killed, {n_surv} survived, "
               f"{n_eq} equivalent, score {100.0 * n_killed / counted_ if counted_ else 0.0:.1f} %"
               f"{' of the sample' if sampled else ''}, {minutes:.0f} min"
               f" ({n_sw} switched in one build, {len(results) - n_sw} built one by one)"
               + ("" if len(results) >= len(runnable) else
                  f" ({len(runnable) - len(results)} not run yet: --continue)"))
    return summary


def selects_tests(args):
    """True when each mutant runs only the tests that can see it, switched where its line
    has a switched form (one build and a traced baseline, not a rebuild per mutant):
    --since's mutants, and a --sample of the catalogue (the campaign's); --all-tests and
    --all-groups run every group on every mutant instead."""
    return bool(args.since or args.sample is not None) and not args.all_tests and not args.all_groups


def list_mutants(mutants, equivalent):
    """--list: the chosen mutants, one a line, the equivalent ones tagged."""
    for m in mutants:
        tag = "  [equivalent]" if m["id"] in equivalent else ""
        print(f"{m['id']}  {m['file']}:{m['line']}  {m['op']}  {m['new'].strip()}{tag}")
    print(f"{len(mutants)} mutants", file=sys.stderr)
    return 0


def runnable_mutants(args, mutants, equivalent):
    """(runnable, groups, python_only): the mutants to run (no equivalent one; --sample's
    draw), the test groups they run and whether they are all Python."""
    runnable = [m for m in mutants if m["id"] not in equivalent]
    if args.sample is not None:
        runnable = random.Random(args.seed).sample(runnable, min(args.sample, len(runnable)))
        runnable.sort(key=lambda m: (m["file"], m["line"]))
    groups = GROUPS + ([] if args.no_asan else ["asan"])
    python_only = bool(runnable) and all(m.get("python") for m in runnable)
    if python_only:
        groups = list(PY_GROUPS)  # nothing to build: the self-tests run the scripts as they are
    elif any(m.get("python") for m in runnable):
        groups = groups + PY_GROUPS  # its baseline; C++ mutants never run it (Runner.mutant)
    return runnable, groups, python_only


def run_mutants(runner, todo, groups, all_groups, done, results_path):
    """Runs the mutants left one by one, each result appended to DIR/results.jsonl."""
    loop_start = time.time()
    with open(results_path, "a") as log:
        for i, m in enumerate(todo, 1):
            r = runner.mutant(m, groups, all_groups)
            done[r["id"]] = r
            log.write(json.dumps(r) + "\n")
            log.flush()
            how = f"killed by {', '.join(r['killed_by'])}" if r["status"] == "killed" else r["status"].upper()
            eta = (time.time() - loop_start) / i * (len(todo) - i)
            print(f"[{i}/{len(todo)}] {m['file']}:{m['line']} {m['op']}: {how} ({r['seconds']} s, ~{eta / 60:.0f} min left)",
                  flush=True)


def closing(args, out, mutants, runnable, done, equivalent, groups, start):
    """Writes the report, prints the score and the first survivors; the exit code."""
    results = [done[m["id"]] for m in runnable if m["id"] in done]
    summary = since_summary(args, mutants, runnable, results, equivalent) if args.since else None
    score, killed, counted, survivors = report(out, mutants, results, equivalent, groups, summary)
    if summary:
        print(f"\n{summary}\nthis run: {(time.time() - start) / 60:.0f} min wall, building and the baseline included")
    print(f"\nmutation score: {score:.1f} % ({killed}/{counted} killed; {len(survivors)} survived) -- {out}/report.md")
    for r in survivors[:20]:
        m = next(x for x in mutants if x["id"] == r["id"])
        print(f"  survived {r['id']} {m['file']}:{m['line']} {m['op']}: {m['new'].strip()}")
    if args.min_score is not None and score < args.min_score:
        return 1
    return 0


def main(doc):
    """The run the command line asks for; its exit code (doc: as parse_args')."""
    ap, args = parse_args(doc)
    out = (ROOT / args.out).resolve() if not os.path.isabs(args.out) else Path(args.out)
    mutants, candidates, equivalent = chosen_mutants(ap, args)
    if args.list:
        return list_mutants(mutants, equivalent)
    unknown = set(equivalent) - {m["id"] for m in candidates}
    if unknown:
        print(f"note: {len(unknown)} entries of scripts/mutate.equivalent match no mutant any more: "
              f"{' '.join(sorted(unknown))}", file=sys.stderr)
    runnable, groups, python_only = runnable_mutants(args, mutants, equivalent)

    out.mkdir(parents=True, exist_ok=True)
    results_path = out / "results.jsonl"
    done = earlier_results(args, results_path)
    todo = [] if args.report else [m for m in runnable if m["id"] not in done]
    if args.since:  # the budget operators first: the slips this kind of change invites
        todo.sort(key=lambda m: m["op"] not in NEW_OPS)

    # SPIN's answers kept by model text (core/tests/model/promela_spin_test.cpp's Pan): a mutant
    # that leaves an exported model as it was does not build and run it again
    os.environ.setdefault("NEFFBAR_SPIN_CACHE", str(out / "spin-cache"))
    runner = Runner(out, not args.no_asan and not python_only, args.timeout_scale)
    runner.probe = bool(args.since)
    runner.select = selects_tests(args)
    for r in done.values():  # --continue/--resume: the killers found so far
        by = next((m for m in runnable if m["id"] == r["id"]), None)
        if by and r.get("killed_tests"):
            runner.learn(by, r["killed_tests"])
    print(f"mutate: {len(runnable)} mutants ({len(todo)} to run) of {len({m['file'] for m in runnable})} files; "
          f"groups: {', '.join(groups)}; work dir {out}", flush=True)
    start = time.time()
    if todo:
        todo = build_and_baseline(runner, runnable, todo, groups, done, results_path, start, python_only)
    if runner.probe and todo and not runner.select:
        runner.index_tests()
    run_mutants(runner, todo, groups, args.all_groups, done, results_path)
    if todo and not python_only:  # rebuild the unmutated tree so DIR/build-* are left as the checkout
        runner.build(runner.gcc)
    return closing(args, out, mutants, runnable, done, equivalent, groups, start)
