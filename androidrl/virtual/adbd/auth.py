"""adb's RSA authentication, device side: a host gets in only by signing a token with a trusted key.

A phone with ``ro.adb.secure=1`` answers a host's CNXN with ``AUTH TOKEN`` (20 random
bytes). The host signs the token with its private key (``~/.android/adbkey``) and sends
``AUTH SIGNATURE``; the phone verifies it against the public keys it trusts
(``/data/misc/adb/adb_keys``) and answers CNXN only when one of them made it. A failed
signature gets a new token (after 256 failures, a second's wait first). When the host has
no key left to try it sends its public key (``AUTH RSAPUBLICKEY``): AOSP adbd then asks the
phone's user (AOSP ``packages/modules/adb/adb.cpp`` ``handle_packet``, ``daemon/auth.cpp``).
The virtual phone never lets an offered key in by itself: see :mod:`~androidrl.virtual.adbd.keys`
for the explicit trust step, after which the host must still sign a fresh token.

The signature is RSA PKCS#1 v1.5 over the token taken as a SHA-1 digest (the host calls
``RSA_sign(NID_sha1, token, ...)``); the public key is Android's ``RSAPublicKey`` struct
in base64 (AOSP ``system/core/libcrypto_utils/android_pubkey.c``). Verifying needs one
modular exponentiation, so no crypto library is needed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

AUTH_TOKEN, AUTH_SIGNATURE, AUTH_RSAPUBLICKEY = 1, 2, 3
TOKEN_SIZE = 20
#: Failed signatures on one connection after which each new token waits THROTTLE_SECONDS (AOSP adb.cpp).
THROTTLE_AFTER = 256
THROTTLE_SECONDS = 1.0
# DER prefix of a SHA-1 DigestInfo: what PKCS#1 v1.5 puts before the digest.
_SHA1_PREFIX = bytes.fromhex("3021300906052b0e03021a05000414")


@dataclass(frozen=True)
class PublicKey:
    """An adb public key: the RSA modulus and exponent, the ``user@host`` comment, and its base64 text.

    Two keys are equal when their modulus and exponent are.
    """

    modulus: int
    exponent: int
    comment: str = field(default="", compare=False)
    encoded: str = field(default="", compare=False, repr=False)

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
        return cls(modulus, exponent, comment.strip(), encoded)

    @property
    def fingerprint(self) -> str:
        """The MD5 fingerprint Android's "Allow USB debugging?" dialog shows (``3F:A2:...``).

        AOSP ``services/core/java/com/android/server/adb/AdbDebuggingManager.java``
        ``getFingerprints``: MD5 of the decoded key struct, upper-case hex pairs joined by colons.
        """
        digest = hashlib.md5(base64.b64decode(self.encoded)).hexdigest().upper()
        return ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))

    def line(self) -> str:
        """The key as a line of ``adb_keys``: base64, a space, the comment."""
        return f"{self.encoded} {self.comment}".rstrip()

    def verifies(self, token: bytes, signature: bytes) -> bool:
        """Whether ``signature`` is this key's signature of ``token``."""
        size = (self.modulus.bit_length() + 7) // 8
        if len(signature) != size:
            return False
        message = pow(int.from_bytes(signature, "big"), self.exponent, self.modulus).to_bytes(size, "big")
        digest = _SHA1_PREFIX + token
        expected = b"\x00\x01" + b"\xff" * (size - 3 - len(digest)) + b"\x00" + digest
        return hmac.compare_digest(message, expected)


class Authenticator:
    """One connection's side of the exchange: hands out tokens and judges signatures.

    Args:
        trusted: Returns the keys trusted now (read at each signature: a key allowed
            meanwhile counts at once, as adbd reads its key list at each attempt).
    """

    def __init__(self, trusted: Callable[[], list[PublicKey]]) -> None:
        self.trusted = trusted
        self.token = b""
        self.failures = 0

    def new_token(self) -> bytes:
        """A fresh random token to sign (each attempt gets its own)."""
        self.token = os.urandom(TOKEN_SIZE)
        return self.token

    def accepts_signature(self, signature: bytes) -> bool:
        """Whether a trusted key signed the current token (each token is good for one try)."""
        token, self.token = self.token, b""
        if token and any(key.verifies(token, signature) for key in self.trusted()):
            return True
        self.failures += 1
        return False

    def retry_delay(self) -> float:
        """How long to wait before the next token: AOSP sleeps a second once 256 signatures failed."""
        return THROTTLE_SECONDS if self.failures > THROTTLE_AFTER else 0.0
