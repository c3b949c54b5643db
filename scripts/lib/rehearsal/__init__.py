"""The CI rehearsal behind scripts/ci_rehearse.py (./scripts/check-workflows --rehearse):
one job of a GitHub workflow run on this machine.  The ${{ }} expressions: values,
expressions (the syntax), evaluator; the files: globs, copying, file_commands, state; the
`uses:` actions simulated: simulation (what an action sees), cache, artifacts, benchmark,
actions (by name); the job: steps, job (Rehearsal); repository (git: the snapshot and
its clone), workflow (the file and its checks), cli (the options and main)."""
