"""Agent names, their parameters, and the ``AGENT`` spec language.

An agent spec is ``name[:key=value,...]``, e.g. ``alphabeta:depth=8,eval=f4``;
a difficulty preset (``easy``, ...) stands for a spec; and
``path/to/file.py:function`` loads a student's ``agent(board, player)``
function (see :mod:`engine.agents.classroom`).

Agents declare themselves with :func:`register` on a dataclass whose fields
are made with :func:`param`. From that one declaration come the spec parser
and its error messages, the ``--help`` listing, and the GUI's parameter
editors (type, range and choices of every key).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

from engine.agents.base import Agent
from engine.errors import AgentSpecError, ValueRangeError
from engine.geometry import DEFAULT, Geometry
from engine.validate import check_number, shown

A = TypeVar("A", bound=type[Agent])


@dataclass(frozen=True)
class ParamInfo:
    """One key of an agent spec: its type, default, range and meaning."""

    name: str
    kind: type
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    title: str | None = None
    aliases: tuple[str, ...] = ()  # older spellings of the key that specs may still use (``time`` for ``seconds``)

    @property
    def label(self) -> str:
        """A short name for people, e.g. in the game's editor ("Table MB" for ``table_mb``)."""
        words = self.name.replace("_", " ").capitalize()
        return self.title or re.sub(r"\b(kb|mb|gb)\b", lambda unit: unit[0].upper(), words)  # "Memory MB"

    def parse(self, text: str) -> Any:
        """The value of ``key=text``, or :class:`AgentSpecError` saying why not."""
        where = f"{self.name}={shown(text)}"
        if text.lower() == "none" and self.default is None:
            return None
        if self.kind is bool:
            lowered = text.lower()
            if lowered not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise AgentSpecError(f"{where}: expected {self.describe_type()}")
            return lowered in ("1", "true", "yes", "on")
        if self.kind in (int, float):
            try:
                return check_number(text, self.name, self.kind, self.low, self.high)
            except ValueRangeError:
                raise AgentSpecError(f"{where}: expected {self.describe_type()}") from None
        value = self.kind(text)
        if self.choices is not None and value not in self.choices:
            raise AgentSpecError(f"{where}: choose one of {', '.join(self.choices)}")
        return value

    def check(self, value: Any) -> Any:
        """A value given in Python (not as text) checked as :meth:`parse` checks text."""
        if value is None and self.default is None:
            return None
        if self.kind in (int, float):
            try:
                return check_number(value, self.name, self.kind, self.low, self.high)
            except ValueRangeError:
                raise AgentSpecError(f"{self.name}={shown(value)}: expected {self.describe_type()}") from None
        if self.kind is bool and not isinstance(value, bool):
            raise AgentSpecError(f"{self.name}={shown(value)}: expected {self.describe_type()}")
        if self.choices is not None and value not in self.choices:
            raise AgentSpecError(f"{self.name}={shown(value)}: choose one of {', '.join(self.choices)}")
        return value

    def describe_type(self) -> str:
        if self.choices:
            return "one of " + "|".join(self.choices)
        name = {int: "a whole number", float: "a finite number", bool: "true or false", str: "text"}[self.kind]
        if self.low is not None and self.high is not None:
            name += f" from {self.low:g} to {self.high:g}"
        return name


def param(
    default: Any,
    help: str,
    *,
    kind: type | None = None,
    low: float | None = None,
    high: float | None = None,
    choices: tuple[str, ...] | None = None,
    label: str | None = None,
    aliases: tuple[str, ...] = (),
) -> Any:
    """A dataclass field that is also a spec key (``kind`` defaults to the default's type).

    ``label`` names the key for people where its spec name is terse; ``aliases``
    are its older names, still accepted in specs so that saved specs and scripts
    keep working (one name per concept: ``seconds``, ``table_mb``).
    """
    if kind is None:
        if default is None:
            raise TypeError("param(None, ...) needs kind=")
        kind = type(default)
    meta = {
        "help": help,
        "kind": kind,
        "low": low,
        "high": high,
        "choices": choices,
        "label": label,
        "aliases": aliases,
    }
    return field(default=default, metadata={"param": meta})


@dataclass(frozen=True)
class AgentInfo:
    """A registered agent: its name, class, one-line summary and parameters."""

    name: str
    cls: type[Agent]
    summary: str
    params: tuple[ParamInfo, ...]

    def param(self, key: str) -> ParamInfo:
        """The key named ``key`` or one of its older names (aliases)."""
        for info in self.params:
            if info.name == key or key in info.aliases:
                return info
        known = ", ".join(p.name for p in self.params) or "none"
        raise AgentSpecError(f"{self.name} has no key {key!r} (its keys: {known})")


@dataclass(frozen=True)
class Preset:
    """A named difficulty: a spec that the game offers by name."""

    name: str
    spec: str
    summary: str
    level: int  # 0 = easiest; the game lists presets by level
    elo: int | None = None  # measured on the ladder (see engine/agents/presets.py)

    @property
    def rating(self) -> str:
        """``Elo 1500`` for people, or empty when the preset has not been measured."""
        return "" if self.elo is None else f"Elo {self.elo}"

    def rating_on(self, geometry: Geometry) -> str:
        """:attr:`rating` on the board the ladder was measured on (7x6, connect 4), else empty: an Elo from
        one board says little about another."""
        return self.rating if geometry == DEFAULT else ""

    def exact_on(self, geometry: Geometry) -> bool:
        """Whether every move of this level is proven best on ``geometry`` (its agent says)."""
        agent = create_agent(self.spec)
        try:
            return agent.exact_on(geometry)
        finally:
            agent.close()

    def guesses_on(self, geometry: Geometry) -> bool:
        """A level that is exact on the classic board but not on ``geometry``: there its moves are a best guess."""
        return not self.exact_on(geometry) and self.exact_on(DEFAULT)


_AGENTS: dict[str, AgentInfo] = {}
_PRESETS: dict[str, Preset] = {}
_loaded = False


#: Stands in a text for what a student's file may do on this machine; filled in when the text is shown
#: (engine.agents.classroom.with_trust_note), because finding that out starts a process.
TRUST_MARK = "<what its sandbox holds on this machine>"


def register(name: str, summary: str) -> Callable[[A], A]:
    """Class decorator: make a dataclass agent available under ``name``."""

    def decorate(cls: A) -> A:
        params = []
        for f in fields(cls):  # type: ignore[arg-type]
            meta = f.metadata.get("param")
            if meta is None:
                continue
            default = f.default if f.default is not MISSING else None
            params.append(
                ParamInfo(
                    f.name,
                    meta["kind"],
                    default,
                    meta["help"],
                    meta["low"],
                    meta["high"],
                    meta["choices"],
                    meta["label"],
                    meta["aliases"],
                )
            )
        cls.name = name
        cls.__post_init__ = _checked(cls.__post_init__, tuple(params))  # type: ignore[method-assign,assignment]
        _AGENTS[name] = AgentInfo(name, cls, summary, tuple(params))
        return cls

    return decorate


def _checked(post_init: Callable[[Any], None], params: tuple[ParamInfo, ...]) -> Callable[[Any], None]:
    """``__post_init__`` that first checks every key, so agents made in Python obey the spec's ranges."""

    def __post_init__(self: Any) -> None:
        for info in params:
            setattr(self, info.name, info.check(getattr(self, info.name)))
        post_init(self)

    return __post_init__


def register_preset(name: str, spec: str, summary: str, level: int, elo: int | None = None) -> None:
    """Offer ``spec`` under the difficulty name ``name`` (``level`` 0 is the easiest; ``elo`` as measured)."""
    _PRESETS[name] = Preset(name, spec, summary, level, elo)


def _load_all() -> None:
    """Import every module of :mod:`engine.agents` so that each registers itself."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    # (by the folder's path, not by importing the package, which imports this module)
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        importlib.import_module(f"{__package__}.{module.name}")


def agents() -> list[AgentInfo]:
    """Every registered agent, in name order."""
    _load_all()
    return [_AGENTS[name] for name in sorted(_AGENTS)]


def presets() -> list[Preset]:
    """The difficulty presets, easiest first."""
    _load_all()
    return sorted(_PRESETS.values(), key=lambda preset: preset.level)


def agent_info(name: str) -> AgentInfo:
    _load_all()
    if name not in _AGENTS:
        known = ", ".join(sorted(_AGENTS) + [name for name in _PRESETS if name not in _AGENTS])  # perfect is both
        raise AgentSpecError(f"unknown agent {name!r} (known: {known})")
    return _AGENTS[name]


#: ``FILE.py:FUNCTION``, or a bare ``FILE.py`` (whose last callable plays, as Kaggle takes a submission's);
#: never ``classroom:path=FILE.py`` (a path with ``=`` is an agent's keys).
_STUDENT_FILE = re.compile(r"^(?P<path>[^=]+?\.py)(?::(?P<function>[A-Za-z_]\w*))?(?:,(?P<rest>.*))?$")


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,...`` into the name and the raw key/value texts.

    A preset name expands to its spec; ``file.py:function[,key=value...]``
    becomes the ``classroom`` agent. Keys come back under their current names
    (``time=`` as ``seconds``): of a key given under both, the later counts.
    """
    _load_all()
    spec = spec.strip()
    if not spec:
        raise AgentSpecError("empty agent spec")
    student = _STUDENT_FILE.match(spec)
    if student:
        values = {"path": student["path"], "function": student["function"] or ""}
        values.update(_key_values(student["rest"] or "", spec))
        return "classroom", _current_names("classroom", values)
    name, _, rest = spec.partition(":")
    name = name.strip().lower()
    if name in _PRESETS and name not in _AGENTS:  # a preset may share its agent's name
        base_name, base_values = parse_spec(_PRESETS[name].spec)
        base_values.update(_current_names(base_name, _key_values(rest, spec)))
        return base_name, base_values
    return name, _current_names(name, _key_values(rest, spec))


def _current_names(name: str, values: dict[str, str]) -> dict[str, str]:
    """``values`` with every older key name (an alias) replaced by the key's current one; keys the
    agent lacks (and any key of an unknown agent) stay as written, for the error that names them."""
    info = _AGENTS.get(name)
    if info is None:
        return values
    renamed: dict[str, str] = {}
    for key, text in values.items():
        current = next((p.name for p in info.params if key == p.name or key in p.aliases), key)
        renamed.pop(current, None)  # (the later spelling counts, in the place it was written)
        renamed[current] = text
    return renamed


#: Agents that run a Python file the spec names (a student's code); an agent added later that runs a file joins here.
FILE_AGENTS = frozenset({"classroom"})


def runs_a_file(spec: str) -> bool:
    """Whether ``spec`` names a file whose code its agent would run (``FILE.py:FUNCTION``, ``classroom:...``).

    The one rule for what saved games, settings and start-up paths may never
    keep or start: such a spec runs only when a person chooses it. Read from
    the text as :func:`parse_spec` reads it, without loading the agents or
    raising (a spec that does not parse runs nothing).
    """
    text = spec.strip() if isinstance(spec, str) else ""
    if _STUDENT_FILE.match(text):
        return True
    name = text.partition(":")[0].strip().lower()
    if name in _PRESETS and name not in _AGENTS:  # a preset stands for its spec
        return runs_a_file(_PRESETS[name].spec)
    return name in FILE_AGENTS


def _key_values(text: str, spec: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise AgentSpecError(f"in {spec!r}: {item!r} should be key=value")
        values[key.strip().lower()] = value.strip()
    return values


def create_agent(spec: str, *, seed: int | None = None) -> Agent:
    """Build an agent from its spec; ``seed`` is used if the spec sets none."""
    name, raw = parse_spec(spec)
    info = agent_info(name)
    kwargs = {key: info.param(key).parse(text) for key, text in raw.items()}
    if seed is not None and "seed" not in kwargs and any(p.name == "seed" for p in info.params):
        kwargs["seed"] = seed
    try:
        return info.cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise AgentSpecError(f"{spec!r}: {exc}") from None


def create_computer_agent(spec: str, *, seed: int | None = None) -> Agent:
    """:func:`create_agent` for commands that play without a person: ``human`` is refused in one line."""
    agent = create_agent(spec, seed=seed)
    if agent.is_human:
        agent.close()
        raise AgentSpecError(f"{spec!r} needs a person at the keyboard: only `play` and `match` take it")
    return agent


def describe_agents() -> str:
    """The listing that ``--help`` prints: every agent, its keys, the presets."""
    lines = ["agents (AGENT is name[:key=value,...]):"]
    for info in agents():
        lines.append(f"  {info.name:<12} {info.summary}")
        for p in info.params:
            default = "none" if p.default is None else str(p.default).lower() if p.kind is bool else p.default
            old = f"; also {', '.join(a + '=' for a in p.aliases)}" if p.aliases else ""
            lines.append(f"      {p.name}=  {p.help} ({p.describe_type()}; default {default}{old})")
    if _PRESETS:
        lines.append("difficulty presets:")
        for preset in presets():
            rating = f" ({preset.rating})" if preset.elo is not None else ""
            lines.append(f"  {preset.name:<12} {preset.summary}{rating} = {preset.spec}")
    lines.append(
        "  FILE.py:FUNCTION  a student's agent(board, player=1) or Kaggle agent(observation, configuration)"
        " (see classroom); a bare FILE.py plays its last callable, as Kaggle does"
    )
    return "\n".join(lines)
