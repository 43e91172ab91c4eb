"""``kaggle-submission``: one engine agent packed as a Kaggle ConnectX submission (``submission.tar.gz``)."""

from __future__ import annotations

from pathlib import Path

from engine.agents.registry import create_agent
from engine.cli.common import add_command
from engine.errors import AgentSpecError
from engine.interop.submission import build


def add_parser(subparsers) -> None:
    parser = add_command(
        subparsers,
        "kaggle-submission",
        "write a Kaggle ConnectX submission (.tar.gz) that plays AGENT, every move inside Kaggle's actTimeout",
        agents=True,
    )
    parser.add_argument("--agent", required=True, metavar="AGENT", help="the agent spec, e.g. hard or expert")
    parser.add_argument(
        "--out", type=Path, default=Path("submission.tar.gz"), help="the archive to write (default submission.tar.gz)"
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    agent = create_agent(args.agent)  # (a bad spec is one line, before anything is written)
    try:
        if agent.is_human or agent.name == "classroom":
            raise AgentSpecError(f"{args.agent} cannot be submitted: only the engine's own agents can")
    finally:
        agent.close()
    size = build(args.agent, args.out)
    print(f"{args.out}: {size:,} bytes; submit it on the competition's page (or: kaggle competitions submit)")
    return 0
