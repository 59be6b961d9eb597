"""The newer TripleA dice server's RSA signature, checked against its public key (``--dice-key``).

The server (triplea-game/dice-server-js) signs each roll with RSA-SHA512 (PKCS #1 v1.5) and puts
the signature, base64, in the verification token it mails. What it signs:

- a token with ``"v": 2``: the compact JSON ``{"v":2,"dice":[..],"max":6,"times":n,
  "email1":"..","email2":"..","date":ms}`` in exactly that key order;
- an older token (no ``v``): the bytes of ``[...dice, date]``, each number cut to its low byte
  (Node's ``Buffer.from``), so the signature binds the dice and almost nothing of the time.

Only the public operation is needed, so it is done here with the standard library, no
dependency: the key's modulus and exponent read from its PEM (an X.509 SubjectPublicKeyInfo, the
few DER elements it has), the signature raised to the exponent modulo the modulus, and the result
compared whole with the PKCS #1 v1.5 encoding of the payload's SHA-512 digest (RFC 8017, 8.2.2:
the expected block is built and compared, never parsed, so no lax padding check can be fooled).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
from pathlib import Path

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


#: RFC 8017, 9.2, note 1: the DER of SHA-512's DigestInfo, before the digest itself.
_SHA512_INFO = bytes.fromhex("3051300d060960864801650304020305000440")
#: rsaEncryption's object identifier, as DER (1.2.840.113549.1.1.1).
_RSA_OID = bytes.fromhex("06092a864886f70d010101")
_PEM = re.compile(rb"-----BEGIN PUBLIC KEY-----(.*?)-----END PUBLIC KEY-----", re.S)


def _der(data: bytes, at: int, tag: int) -> tuple[bytes, int]:
    """The content of the DER element of ``tag`` at ``at``, and where the next one starts."""
    if at + 2 > len(data) or data[at] != tag:
        raise KeyFileError("not an RSA public key (its DER does not read)")
    length, at = data[at + 1], at + 2
    if length & 0x80:
        size = length & 0x7F
        if not 0 < size <= 4 or at + size > len(data):
            raise KeyFileError("not an RSA public key (its DER does not read)")
        length, at = int.from_bytes(data[at:at + size], "big"), at + size
    if at + length > len(data):
        raise KeyFileError("not an RSA public key (its DER is cut short)")
    return data[at:at + length], at + length


def rsa_public_key(pem: bytes) -> tuple[int, int]:
    """(modulus, public exponent) of a PEM ``PUBLIC KEY`` (X.509 SubjectPublicKeyInfo) of RSA."""
    found = _PEM.search(pem)
    if found is None:
        raise KeyFileError("expected a PEM public key ('-----BEGIN PUBLIC KEY-----')")
    try:
        der = base64.b64decode(b"".join(found.group(1).split()), validate=True)
    except (binascii.Error, ValueError):
        raise KeyFileError("the PEM public key is not base64") from None
    info, _ = _der(der, 0, 0x30)
    algorithm, rest = _der(info, 0, 0x30)
    if not algorithm.startswith(_RSA_OID):
        raise KeyFileError("not an RSA public key (another algorithm)")
    bits, _ = _der(info, rest, 0x03)
    if not bits or bits[0] != 0:
        raise KeyFileError("not an RSA public key (its key bits do not read)")
    numbers, _ = _der(bits, 1, 0x30)
    modulus, after = _der(numbers, 0, 0x02)
    exponent, _ = _der(numbers, after, 0x02)
    n, e = int.from_bytes(modulus, "big"), int.from_bytes(exponent, "big")
    if n.bit_length() < 1024 or e < 3:
        raise KeyFileError("not a usable RSA public key (modulus under 1024 bits, or exponent below 3)")
    return n, e


def rsa_sha512_valid(key: tuple[int, int], payload: bytes, signature: bytes) -> bool:
    """RSASSA-PKCS1-v1_5 verification with SHA-512 (RFC 8017, 8.2.2)."""
    n, e = key
    size = (n.bit_length() + 7) // 8
    if len(signature) != size:
        return False
    s = int.from_bytes(signature, "big")
    if s >= n:
        return False
    block = pow(s, e, n).to_bytes(size, "big")
    digest = _SHA512_INFO + hashlib.sha512(payload).digest()
    if size < len(digest) + 11:
        return False
    expected = b"\x00\x01" + b"\xff" * (size - len(digest) - 3) + b"\x00" + digest
    return hmac.compare_digest(block, expected)


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
        if len(data) > MAX_KEY_BYTES:
            raise KeyFileError(f"expected a PEM public key, not a file over {MAX_KEY_BYTES} bytes")
        self.key = rsa_public_key(data)

    def check(self, payload: bytes, signature: str) -> tuple[bool | None, str]:
        """Whether the signature holds for ``payload``."""
        try:
            raw = base64.b64decode(signature, validate=True)
        except (binascii.Error, ValueError):
            return False, "signature is not base64"
        if not rsa_sha512_valid(self.key, payload, raw):
            return False, "signature does NOT match the dice server's key: the dice or time were changed"
        return True, "signature checked against the dice server's key: valid"
