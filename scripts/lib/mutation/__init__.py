"""scripts/mutate's mutation testing, module by module.  What is mutated: settings (the
sources, the groups), syntax (C++ text: code, parentheses), operators (the C++ line
mutants), budget (the stop, stopneg, handoff and exitcode operators), python_ops (the
Python scripts' mutants), catalogue (the mutants of a tree, --since's lines, the
catalogue drawn from them), switches (the one-line switched forms of C++ mutants).  How
they are run: runner (Runner, a mutant applied, built and judged) with its parts trees
(the trees, builds and baselines), selection (--since's tests that can see a mutant, the
Python trace) and switch_runs (the switched mutants); report (report.md, score.json);
cli (the options and main).  Never mutated itself: python_sources takes the top level of
scripts/lib/ only, not this folder."""
