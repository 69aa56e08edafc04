"""Where androidrl's code comes from: its version, its git commit, and a permalink to it.

Run directories (``versions.json``) and Minari datasets (``code_permalink``) carry them, so
a result can be traced to the code that made it.
"""

from __future__ import annotations

import getpass
import re
import subprocess
from importlib import metadata
from pathlib import Path

#: The package's own directory (a git checkout when installed with ``pip install -e``).
_PACKAGE = Path(__file__).resolve().parent


def version() -> str:
    """Androidrl's installed version."""
    try:
        return metadata.version("androidrl")
    except metadata.PackageNotFoundError:  # (run from a checkout that was never installed)
        return "unknown"


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(_PACKAGE), *args], capture_output=True, text=True, timeout=10, check=True
    ).stdout.strip()


def commit() -> str | None:
    """The commit androidrl runs from (``+dirty`` with uncommitted changes), or None outside a git checkout."""
    try:
        sha = _git("rev-parse", "HEAD")
        return sha + ("+dirty" if _git("status", "--porcelain", "--untracked-files=no") else "")
    except (OSError, subprocess.SubprocessError):
        return None


def code_permalink() -> str:
    """A link to the code: ``<repository>/tree/<commit>`` when the checkout's remote is a web address.

    Otherwise the version and the commit in words (a local remote path is no link, and names
    nothing outside this machine).
    """
    sha = commit()
    if sha is None:
        return f"androidrl {version()}"
    try:
        remote = _git("remote", "get-url", "origin")
    except (OSError, subprocess.SubprocessError):
        remote = ""
    ssh = re.fullmatch(r"git@([\w.-]+):(.+?)(\.git)?", remote)
    web = f"https://{ssh[1]}/{ssh[2]}" if ssh else remote.removesuffix(".git") if remote.startswith("https://") else ""
    clean = sha.removesuffix("+dirty")
    return f"{web}/tree/{clean}" if web and clean == sha else f"androidrl {version()}, commit {sha}"


def author() -> str | None:
    """Who is making a dataset: git's ``user.name``, else the login name (None if neither is known)."""
    try:
        return _git("config", "user.name") or getpass.getuser()
    except (OSError, subprocess.SubprocessError):
        try:
            return getpass.getuser()
        except (OSError, KeyError):
            return None
