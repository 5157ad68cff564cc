"""A maintainer's held key, three ways: a key file, ssh-agent, or ``ssh-keygen``.

Whichever way, the result is the same kind of receipt: an armored SSHSIG over the
release record's exact bytes in namespace ``gitmem-release``, checked before it is
stored (a signature that does not verify, or was made by another key than the one
the record names, is refused).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from gitmem.core.errors import FormatError, InputError, SigningKeyError, TrustError
from gitmem.core.receipts import ED25519, Signer, fingerprint_of_blob, receipt_key, sign, verify
from gitmem.core.revocation import parse_key_line
from gitmem.core.types import Fingerprint
from gitmem.store.keys import load_private_key
from gitmem.team.release import sshkeygen

SIGNERS = ("file", "agent", "ssh-keygen")


@dataclass(frozen=True)
class HeldKey:
    """Signs release records (a :data:`gitmem.store.seal.Sign`); ``fingerprint`` names
    the key in the record."""

    fingerprint: Fingerprint
    blob: bytes
    how: str
    _sign: Callable[[bytes, str], bytes]

    def sign(self, message: bytes, namespace: str) -> bytes:
        """The armored SSHSIG of *message* in *namespace*, checked to verify under this key.

        Raises:
            SigningKeyError: the key could not sign, or signed something that does not verify.
        """
        armored = self._sign(message, namespace)
        try:
            key_type, blob = receipt_key(armored)
            if blob != self.blob:
                raise SigningKeyError(
                    f"the signature was made by {fingerprint_of_blob(blob)}, "
                    f"not by {self.fingerprint}"
                )
            if key_type == ED25519:
                verify(message, armored, namespace)
            else:
                sshkeygen.check_novalidate(message, armored, namespace)
        except (FormatError, TrustError) as e:
            raise SigningKeyError(
                f"the {self.how} made a signature that does not verify: {e}"
            ) from e
        return armored


def _from_signer(signer: Signer, how: str) -> HeldKey:
    key = signer.public_key
    return HeldKey(
        key.fingerprint(),
        key.blob(),
        how,
        lambda message, namespace: sign(message, signer, namespace),
    )


def _public_key_file(path: Path) -> tuple[Path, bytes]:
    pub = path if path.name.endswith(".pub") else path.with_name(path.name + ".pub")
    try:
        text = pub.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read the public key {pub}: {e.strerror or e}") from e
    try:
        _, blob = parse_key_line(text, str(pub))
    except FormatError as e:
        raise InputError(str(e)) from e
    return pub, blob


def held_key(kind: str, key: Path | None, environ: Mapping[str, str]) -> HeldKey:
    """The held key to sign with.

    - ``file``: *key* is an unencrypted Ed25519 OpenSSH private key file;
    - ``agent``: the key is in ssh-agent (``$SSH_AUTH_SOCK``); *key* optionally names
      its public key file (or the private key file beside it) when the agent holds
      several;
    - ``ssh-keygen``: ``ssh-keygen -Y sign -f KEY`` signs, so *key* may be a hardware
      ``-sk`` key handle, a passphrase-protected key, or a public key whose private
      half is in ssh-agent; its public key is ``KEY.pub`` (or *key* itself).

    Raises:
        InputError: a missing ``--key`` or public key file, an unknown *kind*.
        SigningKeyError: the key or agent is unusable.
    """
    if kind == "file":
        if key is None:
            raise InputError("--signer file needs --key PATH (an Ed25519 private key file)")
        try:
            return _from_signer(load_private_key(key), f"key file {key}")
        except SigningKeyError as e:
            if not key.is_file():
                raise
            raise SigningKeyError(
                f"{e} (a passphrase-protected or hardware key signs with --signer ssh-keygen)"
            ) from e
    if kind == "agent":
        from gitmem.team.release.agent import agent_signer

        want = None if key is None else _public_key_file(key)[1]
        return _from_signer(agent_signer(environ, want), "ssh-agent")
    if kind == "ssh-keygen":
        if key is None:
            raise InputError("--signer ssh-keygen needs --key PATH (the key ssh-keygen signs with)")
        _, blob = _public_key_file(key)
        return HeldKey(
            fingerprint_of_blob(blob),
            blob,
            "ssh-keygen",
            lambda message, namespace: sshkeygen.sign(message, key, namespace),
        )
    raise InputError(f"unknown signer {kind!r}; choose one of {', '.join(SIGNERS)}")
