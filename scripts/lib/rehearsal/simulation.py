"""What a simulated action sees (its inputs, log, outputs and summary) and how it fails."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))  # scripts/: lib's parent
from lib.rehearsal.file_commands import escape_data  # noqa: E402
from lib.rehearsal.values import to_str  # noqa: E402


class StepFailed(Exception):
    """An action's failure (core.setFailed): the message becomes an ::error."""


class ActionContext:
    """What a simulated action sees: its inputs (defaults applied, trimmed as
    core.getInput does), the log, its outputs, the job summary, the post steps."""

    def __init__(self, rehearsal, step, inputs, defaults):
        self.r, self.step = rehearsal, step
        self.inputs = {k.lower(): to_str(v) for k, v in (defaults or {}).items()}
        self.inputs.update({k.lower(): v for k, v in inputs.items()})
        self.outputs, self.lines, self.summary = {}, [], ""

    def input(self, name, required=False):
        v = self.inputs.get(name, "").strip()
        if required and not v:
            raise StepFailed(f"Input required and not supplied: {name}")
        return v

    def bool_input(self, name):
        """core.getBooleanInput: YAML 1.2 true/false spellings, else an error."""
        v = self.input(name)
        if v in ("true", "True", "TRUE"):
            return True
        if v in ("false", "False", "FALSE"):
            return False
        raise StepFailed(f"Input does not meet YAML 1.2 \"Core Schema\" specification: {name}\n"
                         "Support boolean input list: `true | True | TRUE | false | False | FALSE`")

    def info(self, text):
        self.lines.append(text)

    def warning(self, text):
        self.lines.append("::warning::" + escape_data(text))

    def notice(self, text):
        self.lines.append("::notice::" + escape_data(text))

    def path(self, p):
        return os.path.normpath(os.path.join(self.r.workspace, os.path.expanduser(p)))
