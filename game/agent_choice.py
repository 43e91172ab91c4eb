"""A computer side as the agent screen edits it: a difficulty preset, or an engine agent and the texts of its
parameters; and the control that edits each parameter, chosen by its type, range and choices.

Nothing here knows the agents by name: they come from the engine's registry
(:mod:`engine.agents.registry`), with the type, range and choices of every
parameter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.inputs import Choice, Stepper, TextField
from game.widgets import Widget, format_number

if TYPE_CHECKING:
    from engine.agents.registry import AgentInfo, ParamInfo


class SideChoice:
    """One computer side's choice: a preset name, or an agent name and its parameter texts."""

    def __init__(self, spec: str, catalog) -> None:
        from engine.agents.registry import parse_spec

        self.catalog = catalog
        self.preset: str | None = None
        self.agent = ""
        self.values: dict[str, str] = {}
        spec = catalog.resolve(spec)
        name, values = parse_spec(spec)
        if spec in {preset.name for preset in catalog.presets()}:
            self.preset = spec
        self.agent, self.values = name, values

    def choose_preset(self, name: str) -> None:
        from engine.agents.registry import parse_spec

        self.preset = name
        self.agent, self.values = parse_spec(name)

    def choose_custom(self) -> None:
        self.preset = None  # keep the preset's agent and values as the starting point

    def choose_agent(self, name: str) -> None:
        self.agent, self.values = name, {}

    @property
    def info(self) -> AgentInfo:
        from engine.agents.registry import agent_info

        return agent_info(self.agent)

    def value(self, param: ParamInfo):
        """The current value of a parameter (its default if unset or unreadable)."""
        text = self.values.get(param.name)
        if text is None:
            return param.default
        try:
            return param.parse(text)
        except Exception:
            return param.default

    def set_value(self, param: ParamInfo, value) -> None:
        if value == param.default:
            self.values.pop(param.name, None)
        else:
            self.values[param.name] = "none" if value is None else str(value)

    def spec(self) -> str:
        if self.preset is not None:
            return self.preset
        parts = [f"{key}={text}" for key, text in self.values.items()]
        return self.agent + (":" + ",".join(parts) if parts else "")


def param_editor(param: ParamInfo, side: SideChoice, on_change) -> Widget:
    """The control that fits a parameter's type, range and choices."""

    def set_value(value) -> None:
        side.set_value(param, value)
        on_change()

    value = side.value(param)
    label = param.label
    if param.kind is bool:
        return Choice(label, [(True, "yes"), (False, "no")], value, set_value, help=param.help)
    if param.choices:
        return Choice(label, [(choice, choice) for choice in param.choices], value, set_value, help=param.help)
    if param.kind in (int, float) and param.low is not None and param.high is not None:
        return Stepper(
            label,
            value,
            set_value,
            low=param.low,
            high=param.high,
            kind=param.kind,
            optional=param.default is None,
            help=param.help,
        )

    def set_text(text: str) -> None:
        side.values[param.name] = text.strip() or "none"
        if not text.strip() and param.default is not None:
            side.values.pop(param.name)
        on_change()

    shown = "" if value is None else (format_number(value).replace(",", "") if param.kind in (int, float) else value)
    placeholder = "none" if param.default is None else str(param.default) or param.help

    return TextField(label, str(shown), set_text, placeholder=placeholder, help=param.help)
