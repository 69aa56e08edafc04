"""Ray's token authentication for a node: on unless ``RAY_AUTH_MODE`` turns it off, the token file private.

A Ray cluster runs whatever its members send it; the token is what keeps others out (Ray's
token authentication: https://docs.ray.io/en/latest/ray-security/token-auth.html). Ray 2.60
turns it on by itself only for a cluster that ``ray.init()`` starts, and writes the token it
makes with the default permissions (0644 under the usual umask). A node turns it on, makes
the head's token if there is none (0600), tightens a readable one to 0600 and says so, and
refuses to join a cluster without one.
"""

from __future__ import annotations

import os
import secrets
import stat

from androidrl.node import NodeError
from androidrl.vector.cluster import auth_token_path


def prepare_token(head: bool, env: dict[str, str]) -> list[str]:
    """Turn token authentication on in ``env`` (the Ray node's environment); return what to tell the user.

    Args:
        head: This node starts the cluster (and may make its token).
        env: The environment the Ray node will run with (``RAY_AUTH_MODE`` is set in it).

    Raises:
        NodeError: A joining node has no token, or the token file cannot be made private.
    """
    mode = os.environ.get("RAY_AUTH_MODE", "")
    if mode and mode.lower() != "token":
        return [
            f"warning: token authentication is off (RAY_AUTH_MODE={mode}): anyone who reaches this node's ports "
            "can run code on it"
        ]
    env["RAY_AUTH_MODE"] = "token"
    path = auth_token_path()
    if path is None:
        return ["token authentication: on (the token is in RAY_AUTH_TOKEN)"]
    said = []
    try:
        present = path.is_file() and bool(path.read_text().strip())
    except OSError as err:
        raise NodeError(f"cannot read the Ray token file {path}: {err.strerror or err}") from None
    if not present:
        if not head:
            raise NodeError(
                f"no Ray token at {path}: a node joins a cluster with the cluster's token; copy the head's token "
                f"file here (its `androidrl node --head` names it) and `chmod 600 {path}`, or set "
                "RAY_AUTH_TOKEN_PATH to your copy"
            )
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as f:
            f.write(secrets.token_hex(32))
        said.append(f"made a new Ray token in {path}")
    permissions = stat.S_IMODE(path.stat().st_mode)
    if permissions & 0o077:
        try:
            path.chmod(0o600)
        except OSError as err:
            raise NodeError(
                f"the Ray token file {path} is readable by others ({permissions:04o}) and cannot be made private: "
                f"{err.strerror or err}"
            ) from None
        said.append(
            f"the Ray token file {path} was readable by others ({permissions:04o}): made it 0600 (anyone who "
            "reads it can run code on the cluster)"
        )
    said.append(
        f"token authentication: on, with the token in {path} (0600); every host of the cluster and every "
        "process that trains needs a copy (0600)"
    )
    return said
