"""``ssh-keygen -Y`` for the keys gitmem does not hold itself.

A hardware-backed key (``ed25519-sk``) never leaves its token: the only way to sign
with it is to ask ssh-keygen, which talks to the token (and to ssh-agent, when given a
public key whose private half the agent holds). gitmem's pure verifier reads Ed25519
only, so approvals made with an ``sk-ssh-ed25519@openssh.com`` key are verified here,
by stock ``ssh-keygen -Y verify`` against the same committed trust root and
revocation list, at the record's creation time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from gitmem.core.errors import SigningKeyError, TrustError

ED25519 = "ssh-ed25519"
SK_ED25519 = "sk-ssh-ed25519@openssh.com"
_BEGIN = b"-----BEGIN SSH SIGNATURE-----"
_TIMEOUT = 300  # a hardware key waits for a touch


def executable() -> str | None:
    """The ssh-keygen on PATH, or None. Raises nothing."""
    return shutil.which("ssh-keygen")


def _run(
    args: list[str], stdin: bytes, capture_stderr: bool = True
) -> subprocess.CompletedProcess[bytes]:
    tool = executable()
    if tool is None:
        raise SigningKeyError("ssh-keygen is not installed (it comes with OpenSSH)")
    return subprocess.run(
        [tool, *args],
        input=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if capture_stderr else None,
        env={**os.environ, "TZ": "UTC"},
        timeout=_TIMEOUT,
        check=False,
    )


def sign(message: bytes, key: Path, namespace: str) -> bytes:
    """``ssh-keygen -Y sign -f KEY -n NAMESPACE`` over *message*: the armored SSHSIG.

    *key* is a private key file, the key handle of a hardware ``-sk`` key, or a public
    key whose private half ssh-agent holds. ssh-keygen's prompts (passphrase, "confirm
    user presence") reach the user's terminal.

    Raises:
        SigningKeyError: ssh-keygen is missing, or refused or failed to sign.
    """
    done = _run(["-Y", "sign", "-f", str(key), "-n", namespace], message, False)
    if done.returncode != 0 or not done.stdout.startswith(_BEGIN):
        raise SigningKeyError(
            f"ssh-keygen could not sign with {key} (exit {done.returncode}); "
            "its own message, if any, is above"
        )
    return done.stdout


def check_novalidate(message: bytes, armored: bytes, namespace: str) -> None:
    """The signature is valid over *message* in *namespace* (no trust decision).

    Raises:
        TrustError: it is not, or ssh-keygen is missing.
    """
    with tempfile.TemporaryDirectory(prefix="gitmem-sig-") as folder:
        sig = Path(folder) / "message.sig"
        sig.write_bytes(armored)
        try:
            done = _run(["-Y", "check-novalidate", "-n", namespace, "-s", str(sig)], message)
        except SigningKeyError as e:
            raise TrustError(str(e)) from e
    if done.returncode != 0:
        raise TrustError(f"ssh-keygen does not accept the signature: {_last_line(done.stderr)}")


def verify(
    message: bytes,
    armored: bytes,
    principal: str,
    namespace: str,
    signers: str,
    revoked: str,
    when: datetime,
) -> tuple[bool, str]:
    """``ssh-keygen -Y verify`` against the trust root *signers* (allowed_signers text)
    and the revocation list *revoked*, at the time *when* (``-Overify-time``, in UTC).

    Returns (trusted, one sentence). Raises nothing: a missing ssh-keygen is a
    negative answer with its reason.
    """
    if executable() is None:
        return False, f"ssh-keygen is not installed; it is needed to verify {SK_ED25519} keys"
    stamp = when.astimezone(UTC).strftime("%Y%m%d%H%M%S")
    with tempfile.TemporaryDirectory(prefix="gitmem-verify-") as folder:
        base = Path(folder)
        (base / "allowed_signers").write_text(signers, encoding="utf-8")
        (base / "message.sig").write_bytes(armored)
        args = [
            "-Y",
            "verify",
            "-f",
            str(base / "allowed_signers"),
            "-I",
            principal,
            "-n",
            namespace,
            "-s",
            str(base / "message.sig"),
            f"-Overify-time={stamp}",
        ]
        if revoked:
            (base / "revoked_keys").write_text(revoked, encoding="utf-8")
            args += ["-r", str(base / "revoked_keys")]
        done = _run(args, message)
    if done.returncode == 0:
        return True, f"signed by {principal} ({_last_line(done.stdout)}, checked by ssh-keygen)"
    return False, f"ssh-keygen -Y verify refused it: {_last_line(done.stderr)}"


def _last_line(data: bytes) -> str:
    lines = [line for line in data.decode("utf-8", "replace").splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no message"
