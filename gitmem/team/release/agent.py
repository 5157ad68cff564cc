"""Sign through ssh-agent: the private key stays in the agent (draft-miller-ssh-agent).

Two requests are enough: REQUEST_IDENTITIES (11) lists the agent's keys, SIGN_REQUEST
(13) signs bytes with one of them. Each message is ``uint32 length, byte type,
payload``. The agent signs the SSHSIG signed data (PROTOCOL.sshsig §3) exactly as a key
in memory would, so :func:`gitmem.core.receipts.sign` builds the same receipt from it.
"""

from __future__ import annotations

import socket
import struct
from collections.abc import Mapping
from dataclasses import dataclass

from gitmem.core import sshwire
from gitmem.core.errors import FormatError, SigningKeyError
from gitmem.core.receipts import ED25519, PublicKey

_FAILURE = 5
_REQUEST_IDENTITIES = 11
_IDENTITIES_ANSWER = 12
_SIGN_REQUEST = 13
_SIGN_RESPONSE = 14
_MAX_MESSAGE = 256 * 1024
_TIMEOUT = 300.0  # an agent may ask for confirmation (ssh-add -c) or a touch


@dataclass(frozen=True)
class AgentKey:
    blob: bytes
    comment: str


def _socket_path(environ: Mapping[str, str]) -> str:
    path = environ.get("SSH_AUTH_SOCK")
    if not path:
        raise SigningKeyError("no ssh-agent: SSH_AUTH_SOCK is not set")
    return path


def _request(path: str, kind: int, payload: bytes) -> tuple[int, bytes]:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(_TIMEOUT)
            conn.connect(path)
            conn.sendall(struct.pack(">IB", len(payload) + 1, kind) + payload)
            length = struct.unpack(">I", _read(conn, 4))[0]
            if not 1 <= length <= _MAX_MESSAGE:
                raise SigningKeyError(f"ssh-agent at {path} sent a message of {length} bytes")
            answer = _read(conn, length)
    except OSError as e:
        raise SigningKeyError(f"cannot talk to ssh-agent at {path}: {e.strerror or e}") from e
    return answer[0], answer[1:]


def _read(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise SigningKeyError("ssh-agent closed the connection mid-answer")
        data += chunk
    return data


def agent_keys(environ: Mapping[str, str]) -> list[AgentKey]:
    """Every key the agent at ``$SSH_AUTH_SOCK`` holds, of any type.

    Raises:
        SigningKeyError: no agent, or it refused or answered nonsense.
    """
    kind, payload = _request(_socket_path(environ), _REQUEST_IDENTITIES, b"")
    if kind != _IDENTITIES_ANSWER:
        raise SigningKeyError("ssh-agent refused to list its keys")
    try:
        reader = sshwire.Reader(payload, "ssh-agent identities")
        keys = [
            AgentKey(reader.string("key"), reader.text("comment"))
            for _ in range(reader.uint32("count"))
        ]
        reader.end()
    except FormatError as e:
        raise SigningKeyError(f"ssh-agent sent a malformed key list: {e}") from e
    return keys


@dataclass(frozen=True)
class AgentSigner:
    """A :class:`gitmem.core.receipts.Signer` whose Ed25519 private key is in ssh-agent."""

    socket_path: str
    key: PublicKey

    @property
    def public_key(self) -> PublicKey:
        """The agent key this signer uses. Raises nothing."""
        return self.key

    def sign_raw(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of *data*, made by the agent.

        Raises:
            SigningKeyError: the agent refused (key gone, confirmation denied) or answered
                with something that is not an Ed25519 signature.
        """
        request = sshwire.string(self.key.blob()) + sshwire.string(data) + struct.pack(">I", 0)
        kind, payload = _request(self.socket_path, _SIGN_REQUEST, request)
        if kind == _FAILURE or kind != _SIGN_RESPONSE:
            raise SigningKeyError(f"ssh-agent refused to sign with {self.key.fingerprint()}")
        try:
            outer = sshwire.Reader(payload, "ssh-agent signature")
            inner = sshwire.Reader(outer.string("signature"), "ssh-agent signature")
            outer.end()
            if inner.string("signature type") != ED25519.encode():
                raise FormatError("it is not an ssh-ed25519 signature")
            raw = inner.string("signature bytes")
            inner.end()
        except FormatError as e:
            raise SigningKeyError(f"ssh-agent sent an unusable signature: {e}") from e
        return raw


def agent_signer(environ: Mapping[str, str], want: bytes | None) -> AgentSigner:
    """A signer for the agent key with wire blob *want*, or for the agent's only
    Ed25519 key when *want* is None.

    Raises:
        SigningKeyError: no agent, the key is not in it, it is not Ed25519 (a hardware
            ``-sk`` key signs through ``ssh-keygen`` instead), or the choice is ambiguous.
    """
    path = _socket_path(environ)
    held = agent_keys(environ)
    if want is not None:
        if not any(k.blob == want for k in held):
            raise SigningKeyError("that key is not in ssh-agent (add it with `ssh-add`)")
        chosen = want
    else:
        ed25519 = [k for k in held if k.blob.startswith(sshwire.string(ED25519.encode()))]
        if len(ed25519) != 1:
            raise SigningKeyError(
                f"ssh-agent holds {len(ed25519)} Ed25519 keys; name one with --key KEY.pub"
            )
        chosen = ed25519[0].blob
    try:
        key = PublicKey.from_blob(chosen)
    except FormatError as e:
        raise SigningKeyError(
            f"{e}; sign with a hardware or other agent key through `--signer ssh-keygen "
            "--key KEY.pub`"
        ) from e
    return AgentSigner(path, key)
