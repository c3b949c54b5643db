"""The scripts' shared code, shell and Python: common.sh for the bash scripts (sourced),
and for the Python ones strict_io (files read strictly, written whole) and cli (the
argparse parser, option types, exit codes).  A script puts scripts/ on sys.path and
imports `lib.NAME`; a module here puts scripts/ (its parent) there before it imports a
sibling, so each also loads by its path alone."""
