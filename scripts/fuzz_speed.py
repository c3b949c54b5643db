#!/usr/bin/env python3
"""The speed of one fuzz target in steady state, per CPU second (scripts/fuzz --speed).

    fuzz_speed.py SECONDS LOG BINARY [libFuzzer args...]

Runs BINARY (a libFuzzer target) with the given arguments and measures two phases
apart, by the process's own CPU time (user + system, from /proc and wait4), so that the
other processes of a shared machine do not count:
  - the initial pass: libFuzzer runs every seed of the corpus once before it mutates
    anything ("#N INITED"); a few slow seeds can take seconds, once per job;
  - the steady state: from INITED until SECONDS more CPU seconds have been spent, then
    SIGINT (libFuzzer prints its final stats and exits).  These are the inputs a
    fuzzer tries during a batch job: mutants of the corpus, slow ones included.
Prints one tab-separated line:
    execs_total  inited_execs  inited_cpu_s  steady_execs  steady_cpu_s  steady_exec_per_cpu_s
(`?` for what the run did not reach: a target that crashed, or never got to INITED).
libFuzzer's output goes to LOG.  Exit 0, or 2 on a usage error.  Run as
`python3 scripts/fuzz_speed.py` (a module, like the other .py files here).
"""
import os
import re
import signal
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """utime + stime of a live process (fields 14 and 15 of /proc/pid/stat), or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(argv) > 1 and argv[1].startswith("-"):
        print(f"fuzz_speed.py: unknown option {argv[1]}", file=sys.stderr)
        return 2
    if len(argv) < 4:
        print("fuzz_speed.py: usage: fuzz_speed.py SECONDS LOG BINARY [libFuzzer args...]", file=sys.stderr)
        return 2
    try:
        seconds = float(argv[1])
    except ValueError:
        seconds = 0
    if not seconds > 0:
        print(f"fuzz_speed.py: SECONDS {argv[1]!r}: not a positive number of CPU seconds", file=sys.stderr)
        return 2
    log, cmd = argv[2], argv[3:]
    inited_execs, inited_cpu = run_target(cmd, log, seconds)
    print("\t".join(speed_fields(log, inited_execs, inited_cpu)))
    return 0


def run_target(cmd, log, seconds):
    """Runs the target, its output into LOG, until `seconds` CPU seconds after INITED
    (then SIGINT) or its exit; (INITED's execs, the CPU seconds at INITED), None each
    if it never got there."""
    inited = re.compile(rb"^#(\d+)\s+INITED")
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE)
        os.set_blocking(proc.stderr.fileno(), False)
        inited_execs = inited_cpu = None
        pending = b""
        interrupted = False
        while True:
            chunk = proc.stderr.read() or b""
            out.write(chunk)
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                m = inited.match(line)
                if m and inited_execs is None:
                    # The CPU time now: the pass ended at most one poll (50 ms) ago.
                    inited_execs, inited_cpu = int(m.group(1)), cpu_seconds(proc.pid)
            if proc.poll() is not None:
                break
            if inited_cpu is not None and not interrupted:
                now = cpu_seconds(proc.pid)
                if now is not None and now - inited_cpu >= seconds:
                    proc.send_signal(signal.SIGINT)
                    interrupted = True
            time.sleep(0.05)
        out.write(proc.stderr.read() or b"")
    return inited_execs, inited_cpu


def speed_fields(log, inited_execs, inited_cpu):
    """The output line's six fields, from LOG's final stats and the CPU time of the
    target, which run_target has waited for."""
    # The child is a zombie until waited for; poll() has reaped it, so take its
    # rusage from the children's totals (this script starts only this one).
    usage = os.times()
    total_cpu = usage.children_user + usage.children_system
    text = open(log, "rb").read().decode(errors="replace")
    execs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", text)
    fields = ["?"] * 6
    if execs:
        fields[0] = execs[-1]
    if inited_execs is not None and inited_cpu is not None:
        fields[1], fields[2] = str(inited_execs), f"{inited_cpu:.2f}"
        if execs:
            steady_execs = int(execs[-1]) - inited_execs
            steady_cpu = total_cpu - inited_cpu
            fields[3], fields[4] = str(steady_execs), f"{steady_cpu:.2f}"
            if steady_cpu > 0:
                fields[5] = str(int(steady_execs / steady_cpu))
    return fields


if __name__ == "__main__":
    sys.exit(main(sys.argv))
