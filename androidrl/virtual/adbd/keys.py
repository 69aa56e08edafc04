"""The virtual adbd's key files: the keys it trusts, and the hosts asking to be trusted.

A phone trusts the keys in ``/data/misc/adb/adb_keys``. When a host with another key
offers its public key, AOSP adbd asks the phone's user ("Allow USB debugging? The
computer's RSA key fingerprint is: ...", AOSP ``AdbDebuggingManager``). The virtual phone
has no user at its screen, so an offered key is never trusted by itself. With a keys
directory (``androidrl virtual --auth-prompt``) it files the request there and the user
answers from a shell::

    androidrl virtual-keys                      # the requests, with their fingerprints
    androidrl virtual-keys --allow 3F:A2:...    # trust that key (added to adb_keys)
    androidrl virtual-keys --deny 3F:A2:...     # drop the request

An allowed key still has to sign: the waiting host gets a fresh token and is let in only
once it signs it with that key's private half (a host that merely knows a public key, which
anyone may, never gets in).

A keys directory (made 0700, every file in it 0600)::

    adb_keys            keys allowed so far, one a line, as /data/misc/adb/adb_keys
    pending/<FP>.pub    one request per key, named by its fingerprint without colons
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import tempfile
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from androidrl.virtual.adbd.auth import PublicKey

logger = logging.getLogger(__name__)

DEFAULT_KEYS_DIR = "~/.androidrl/adbd"
#: Requests a keys directory holds at most (hosts offering endless new keys fill no disk).
MAX_PENDING = 64
_UNPRINTABLE = re.compile(r"[^\x20-\x7e]")


def load_keys(paths: Iterable[str | Path]) -> list[PublicKey]:
    """The public keys in ``paths`` (``adbkey.pub`` files or ``adb_keys`` lists, one key a line).

    Raises:
        ValueError: A file is missing, a line is not a key (naming the file), or there is no key.
    """
    paths = list(paths)
    keys = []
    for path in paths:
        path = Path(path).expanduser()
        try:
            lines = [line for line in path.read_text(encoding="ascii", errors="replace").splitlines() if line.strip()]
        except OSError as err:
            raise ValueError(f"cannot read adb keys from {path}: {err.strerror}") from None
        for line in lines:
            try:
                keys.append(PublicKey.parse(line))
            except ValueError as err:
                raise ValueError(f"{path}: {err}") from None
    if not keys:
        raise ValueError(f"no adb public keys in {', '.join(map(str, paths))}")
    return keys


def shown(text: str, limit: int = 80) -> str:
    """A host-supplied text (a key's comment) safe to print: printable ASCII, at most ``limit`` characters."""
    text = _UNPRINTABLE.sub("?", text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def write_private(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` at once (a reader sees the old file or the new), mode 0600."""
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # (mkstemp makes it 0600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(text)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _read_lenient(path: Path) -> list[PublicKey]:
    """The keys of a file that may change while served: bad lines skipped with a warning, as adbd does."""
    keys = []
    try:
        text = path.read_text(encoding="ascii", errors="replace")
    except FileNotFoundError:
        return []
    except OSError as err:
        logger.warning("adbd: cannot read adb keys from %s: %s", path, err.strerror)
        return []
    for line in filter(str.strip, text.splitlines()):
        try:
            keys.append(PublicKey.parse(line))
        except ValueError as err:
            logger.warning("adbd: %s: skipping a line: %s", path, err)
    return keys


class KeysDir:
    """A keys directory: the keys allowed so far and the pending requests (see the module docstring).

    Args:
        path: The directory (made, 0700, when something is first written to it).
    """

    def __init__(self, path: str | Path = DEFAULT_KEYS_DIR) -> None:
        self.path = Path(path).expanduser()
        self.allowed_file = self.path / "adb_keys"
        self.pending_dir = self.path / "pending"

    def allowed(self) -> list[PublicKey]:
        """The keys allowed so far."""
        return _read_lenient(self.allowed_file)

    def requests(self) -> list[PublicKey]:
        """The pending requests, oldest first."""
        try:
            files = sorted(self.pending_dir.glob("*.pub"), key=lambda f: f.stat().st_mtime)
        except (FileNotFoundError, NotADirectoryError):
            return []
        return [key for file in files for key in _read_lenient(file)[:1]]

    def request(self, key: PublicKey) -> bool:
        """File a request for ``key`` (already filed: nothing changes); False when MAX_PENDING are waiting.

        Raises:
            OSError: The directory cannot be written.
        """
        file = self._pending_file(key)
        if file.exists():
            return True
        if len(self.requests()) >= MAX_PENDING:
            return False
        self._make_dirs()
        write_private(file, key.line() + "\n")
        return True

    def is_requested(self, key: PublicKey) -> bool:
        """Whether a request for ``key`` is still waiting for an answer."""
        return self._pending_file(key).exists()

    def find(self, fingerprint: str) -> PublicKey:
        """The pending request whose fingerprint is (or starts with) ``fingerprint``; colons and case do not matter.

        Raises:
            ValueError: No request, or more than one, matches (the message lists the requests).
        """
        wanted = fingerprint.replace(":", "").upper()
        requests = self.requests()
        matches = [key for key in requests if wanted and key.fingerprint.replace(":", "").startswith(wanted)]
        if len(matches) == 1:
            return matches[0]
        listed = "; ".join(f"{key.fingerprint} ({shown(key.comment)})" for key in requests) or "none"
        problem = "matches more than one" if matches else "matches no"
        raise ValueError(
            f"fingerprint {fingerprint!r} {problem} pending request in {self.pending_dir} (pending: {listed})"
        )

    def allow(self, fingerprint: str) -> PublicKey:
        """Trust the requested key: add it to ``adb_keys`` and close its request.

        Raises:
            ValueError: See :meth:`find`.
            OSError: The directory cannot be written.
        """
        key = self.find(fingerprint)
        self._make_dirs()
        keys = self.allowed()
        if key not in keys:
            lines = [k.line() for k in keys] + [key.line()]
            write_private(self.allowed_file, "".join(line + "\n" for line in lines))
        self._pending_file(key).unlink(missing_ok=True)
        return key

    def deny(self, fingerprint: str) -> PublicKey:
        """Drop the request (the host stays unauthorized).

        Raises:
            ValueError: See :meth:`find`.
        """
        key = self.find(fingerprint)
        self._pending_file(key).unlink(missing_ok=True)
        return key

    def _pending_file(self, key: PublicKey) -> Path:
        return self.pending_dir / f"{key.fingerprint.replace(':', '')}.pub"

    def _make_dirs(self) -> None:
        for directory in (self.path, self.pending_dir):
            if not directory.is_dir():
                directory.mkdir(mode=0o700, parents=True, exist_ok=True)
                directory.chmod(0o700)  # (mkdir's mode is narrowed by the umask, never widened)


class TrustedKeys:
    """The keys one adbd trusts: given keys, key files, and a keys directory's allowed ones.

    Files are read again when they change (a key allowed from another shell counts at once).

    Args:
        keys: Keys trusted as given.
        files: Key files (``adbkey.pub``, ``adb_keys``) trusted as they read now and later.
        keys_dir: A keys directory whose allowed keys are trusted too; it also takes the
            requests of hosts that offer other keys (``--auth-prompt``). None: offered keys
            are refused.
    """

    def __init__(
        self, keys: Sequence[PublicKey] = (), files: Sequence[str | Path] = (), keys_dir: KeysDir | None = None
    ) -> None:
        self.keys_dir = keys_dir
        self._keys = list(keys)
        self._files = [Path(f).expanduser() for f in files]
        if keys_dir is not None:
            self._files.append(keys_dir.allowed_file)
        self._cache: dict[Path, tuple[tuple[int, int, int] | None, list[PublicKey]]] = {}
        self._lock = threading.Lock()

    def __call__(self) -> list[PublicKey]:
        """The keys trusted now."""
        keys = list(self._keys)
        with self._lock:
            for file in self._files:
                keys += self._read(file)
        return keys

    def trusts(self, key: PublicKey) -> bool:
        """Whether ``key`` is trusted now."""
        return key in self()

    def _read(self, file: Path) -> list[PublicKey]:
        try:
            st = file.stat()
            version = (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            version = None
        cached = self._cache.get(file)
        if cached is None or cached[0] != version:
            cached = (version, _read_lenient(file) if version is not None else [])
            self._cache[file] = cached
        return cached[1]
