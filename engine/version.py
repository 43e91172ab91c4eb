"""The program's version: one place, read by the package's metadata (pyproject.toml) and both commands' --version."""

VERSION = "0.1.0"


def typed_name(module: str, argv0: str) -> str:
    """The command as the person typed it, for ``usage:``: ``python -m engine`` or ``connect-four-engine``.

    ``argv0`` is ``sys.argv[0]``: a module run with ``-m`` has its ``__main__.py`` (or the module's file)
    there, an installed command its own path.
    """
    import os

    name = os.path.basename(argv0)
    if not name or name in ("__main__.py", "-c") or name == f"{module.rsplit('.', 1)[-1]}.py":
        return f"python -m {module}"
    return name
