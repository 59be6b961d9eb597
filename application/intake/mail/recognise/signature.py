"""The newer TripleA dice server's RSA signature, checked against its public key (``--dice-key``).

The server (triplea-game/dice-server-js) signs each roll with RSA-SHA512 (PKCS #1 v1.5) and puts
the signature, base64, in the verification token it mails. What it signs:

- a token with ``"v": 2``: the compact JSON ``{"v":2,"dice":[..],"max":6,"times":n,
  "email1":"..","email2":"..","date":ms}`` in exactly that key order;
- an older token (no ``v``): the bytes of ``[...dice, date]``, each number cut to its low byte
  (Node's ``Buffer.from``), so the signature binds the dice and almost nothing of the time.

The check needs RSA, which the standard library does not have. It uses the ``cryptography``
package when it is installed; minister does not depend on it, and without it every signature is
reported "not checked", with the reason, while the dice and time are still read from the token.
"""

from __future__ import annotations

import base64
import binascii
import importlib
import json
from pathlib import Path
from types import ModuleType

#: The largest key file read.
MAX_KEY_BYTES = 64 * 1024


class KeyFileError(ValueError):
    """The ``--dice-key`` file cannot be read as a PEM public key (the message says why)."""


def signed_payload(token: dict[str, object]) -> bytes:
    """The bytes the server signed for a decoded token (see the module docstring)."""
    dice = token.get("dice")
    date = token.get("date")
    if token.get("v") == 2:
        fields = {name: token.get(name) for name in ("v", "dice", "max", "times", "email1", "email2", "date")}
        return json.dumps({k: v for k, v in fields.items() if v is not None}, separators=(",", ":"),
                          ensure_ascii=False).encode("utf-8")
    numbers = [*(dice if isinstance(dice, list) else []), date if isinstance(date, int) else 0]
    return bytes(int(n) & 0xFF for n in numbers if isinstance(n, int))


def _cryptography() -> ModuleType | None:
    try:
        return importlib.import_module("cryptography.hazmat.primitives.serialization")
    except ImportError:
        return None


class NoKey:
    """No ``--dice-key`` given: signatures are not checked."""

    def check(self, payload: bytes, signature: str) -> tuple[bool | None, str]:
        """Always "not checked", saying why."""
        return None, "signature not checked: no --dice-key given"


class PublicKey:
    """The dice server's public key, read from a PEM file."""

    def __init__(self, path: Path) -> None:
        try:
            with path.open("rb") as handle:
                data = handle.read(MAX_KEY_BYTES + 1)
        except OSError as error:
            raise KeyFileError(f"cannot read the file ({error.strerror})") from None
        if len(data) > MAX_KEY_BYTES or b"-----BEGIN PUBLIC KEY-----" not in data:
            raise KeyFileError("expected a PEM public key ('-----BEGIN PUBLIC KEY-----')")
        self.pem = data
        self.serialization = _cryptography()
        self.key: object | None = None
        if self.serialization is not None:
            try:
                self.key = self.serialization.load_pem_public_key(data)
            except ValueError as error:
                raise KeyFileError(f"not a public key the cryptography package can read ({error})") from None

    def check(self, payload: bytes, signature: str) -> tuple[bool | None, str]:
        """Whether the signature holds for ``payload``, or why it was not checked."""
        if self.key is None:
            return None, ("signature not checked: RSA needs the 'cryptography' package, which is not "
                          "installed (minister adds no dependency for it)")
        try:
            raw = base64.b64decode(signature, validate=True)
        except (binascii.Error, ValueError):
            return False, "signature is not base64"
        hashes = importlib.import_module("cryptography.hazmat.primitives.hashes")
        padding = importlib.import_module("cryptography.hazmat.primitives.asymmetric.padding")
        invalid = importlib.import_module("cryptography.exceptions").InvalidSignature
        try:
            self.key.verify(raw, payload, padding.PKCS1v15(), hashes.SHA512())  # type: ignore[attr-defined]
        except invalid:
            return False, "signature does NOT match the dice server's key: the dice or time were changed"
        return True, "signature checked against the dice server's key: valid"
