"""adb's RSA authentication, device side: which hosts may connect, checked as a phone checks them.

A phone with ``ro.adb.secure=1`` answers a host's CNXN with ``AUTH TOKEN`` (20 random
bytes). The host signs the token with its private key (``~/.android/adbkey``) and sends
``AUTH SIGNATURE``; the phone verifies it against the public keys it trusts
(``/data/misc/adb/adb_keys``). If none matches, the host sends its public key
(``AUTH RSAPUBLICKEY``) and the phone asks its user; here the user is the key list: a
listed key is accepted, any other is left unauthorized.

The signature is RSA PKCS#1 v1.5 over the token taken as a SHA-1 digest (the host calls
``RSA_sign(NID_sha1, token, ...)``); the public key is Android's ``RSAPublicKey`` struct
in base64 (AOSP ``system/core/libcrypto_utils/android_pubkey.c``). Verifying needs one
modular exponentiation, so no crypto library is needed.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import os
import struct
from dataclasses import dataclass
from pathlib import Path

AUTH_TOKEN, AUTH_SIGNATURE, AUTH_RSAPUBLICKEY = 1, 2, 3
TOKEN_SIZE = 20
# DER prefix of a SHA-1 DigestInfo: what PKCS#1 v1.5 puts before the digest.
_SHA1_PREFIX = bytes.fromhex("3021300906052b0e03021a05000414")


@dataclass(frozen=True)
class PublicKey:
    """An adb public key: the RSA modulus and exponent, and the ``user@host`` comment."""

    modulus: int
    exponent: int
    comment: str = ""

    @classmethod
    def parse(cls, text: str | bytes) -> PublicKey:
        """A key from a line of ``adbkey.pub`` / ``adb_keys`` (base64 struct, then a comment).

        Raises:
            ValueError: Not an adb public key.
        """
        if isinstance(text, bytes):
            text = text.decode("ascii", "replace")
        encoded, _, comment = text.strip().rstrip("\0").partition(" ")
        try:
            raw = base64.b64decode(encoded, validate=True)
            (words,) = struct.unpack_from("<I", raw, 0)
            modulus = int.from_bytes(raw[8 : 8 + 4 * words], "little")
            (exponent,) = struct.unpack_from("<I", raw, 8 + 8 * words)
        except (binascii.Error, struct.error, ValueError):
            raise ValueError(f"not an adb public key: {text[:40]!r}...") from None
        if words not in (64, 128, 256) or modulus == 0:
            raise ValueError(f"not an adb public key: {words * 32}-bit modulus")
        return cls(modulus, exponent, comment.strip())

    def verifies(self, token: bytes, signature: bytes) -> bool:
        """Whether ``signature`` is this key's signature of ``token``."""
        size = (self.modulus.bit_length() + 7) // 8
        if len(signature) != size:
            return False
        message = pow(int.from_bytes(signature, "big"), self.exponent, self.modulus).to_bytes(size, "big")
        digest = _SHA1_PREFIX + token
        expected = b"\x00\x01" + b"\xff" * (size - 3 - len(digest)) + b"\x00" + digest
        return hmac.compare_digest(message, expected)


def load_keys(paths: list[str | Path]) -> list[PublicKey]:
    """The public keys in ``paths`` (``adbkey.pub`` files or ``adb_keys`` lists, one key a line).

    Raises:
        ValueError: A file is missing, or a line is not a key (naming the file).
    """
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


class Authenticator:
    """One connection's side of the exchange: hands out tokens, judges signatures and keys."""

    def __init__(self, keys: list[PublicKey]) -> None:
        self.keys = keys
        self.token = b""

    def new_token(self) -> bytes:
        """A fresh random token to sign (each attempt gets its own)."""
        self.token = os.urandom(TOKEN_SIZE)
        return self.token

    def accepts_signature(self, signature: bytes) -> bool:
        """Whether a trusted key signed the current token."""
        return bool(self.token) and any(key.verifies(self.token, signature) for key in self.keys)

    def accepts_key(self, data: bytes) -> bool:
        """Whether the public key a host offered is a trusted one (the phone's user saying yes)."""
        try:
            offered = PublicKey.parse(data)
        except ValueError:
            return False
        return any((k.modulus, k.exponent) == (offered.modulus, offered.exponent) for k in self.keys)
