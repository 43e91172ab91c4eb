"""Agents: every way of choosing a move, behind one interface.

Import what you need from here; each agent module registers itself under its
spec name when :mod:`engine.agents.registry` loads the package.
"""

from engine.agents.base import Agent, SearchResult
from engine.agents.registry import agents, create_agent, describe_agents, param, presets, register, register_preset
from engine.stop import StopFlag

__all__ = [
    "Agent",
    "SearchResult",
    "StopFlag",
    "agents",
    "create_agent",
    "describe_agents",
    "param",
    "presets",
    "register",
    "register_preset",
]
