"""The scripts' shared code, shell and Python: common.sh, which the bash scripts source,
and the modules the Python scripts import (scripts/README.md lists what each holds).  A
script puts scripts/ on sys.path and imports lib.NAME; a module here puts scripts/, its
parent, there before it imports a sibling, so that each also loads by its path alone."""
