"""Key files in ``$GITMEM_HOME``: create, adopt, load, list.

Private keys live in ``$GITMEM_HOME/keys/`` in OpenSSH format, mode 0600, written
by temp file and rename so a crash never leaves half a key. They never enter a
repository. ``$GITMEM_HOME/config.json`` names the active key and principal;
``$GITMEM_HOME/allowed_signers`` is the personal trust root.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from gitmem.core import receipts
from gitmem.core.allowed_signers import allowed_signers_line, parse_allowed_signers
from gitmem.core.errors import FormatError, InputError, SigningKeyError
from gitmem.core.receipts import Ed25519Signer, PublicKey
from gitmem.store.files import atomic_write
from gitmem.store.home import ALLOWED_SIGNERS, CONFIG_FILE, KEYS_DIR

_PRINCIPAL_RE = re.compile(r"[^\s,\"'*?!#\x00-\x1f\x7f-\x9f]+")


@dataclass(frozen=True)
class Identity:
    """Who signs: a principal and the key that speaks for it."""

    principal: str
    signer: Ed25519Signer
    key_path: Path
    repository: str | None = None
    """The repository its records are written for (:mod:`gitmem.store.repository`);
    None outside one."""

    def sign(self, message: bytes, namespace: str) -> bytes:
        """The armored SSHSIG of *message* in *namespace*, by this identity's key.

        Raises:
            ValueError: an empty namespace.
        """
        return receipts.sign(message, self.signer, namespace)


@dataclass(frozen=True)
class OwnKey:
    path: Path
    public_key: PublicKey
    active: bool


@dataclass(frozen=True)
class InitOutcome:
    identity: Identity
    created_key: bool
    adopted_key: bool
    added_signer: bool
    changed_config: bool


def validate_principal(principal: str) -> str:
    """Return *principal* if it can stand in an allowed_signers file.

    Raises:
        InputError: empty, or holds whitespace, control characters, commas, quotes or
            pattern characters.
    """
    if not _PRINCIPAL_RE.fullmatch(principal):
        raise InputError(
            f"principal {principal!r} must be one word without spaces, control characters, "
            "commas, quotes or * ? ! #"
        )
    return principal


def load_private_key(path: Path) -> Ed25519Signer:
    """Load an unencrypted Ed25519 private key in OpenSSH format.

    Raises:
        SigningKeyError: missing, unreadable, encrypted, or not an Ed25519 key.
    """
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SigningKeyError(f"cannot read key {path}: {e.strerror or e}") from e
    except ValueError as e:  # a NUL in the path
        raise SigningKeyError(f"cannot read key {path!r}: {e}") from e
    try:
        key = serialization.load_ssh_private_key(data, password=None)
    except TypeError as e:
        raise SigningKeyError(
            f"key {path} is passphrase-protected; gitmem signs from hooks without a prompt, "
            "so give it an unencrypted key of its own"
        ) from e
    except UnsupportedAlgorithm as e:
        raise SigningKeyError(
            f"key {path} is not an Ed25519 key (gitmem signs with Ed25519 only)"
        ) from e
    except ValueError as e:
        raise SigningKeyError(f"{path} is not an OpenSSH private key") from e
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"key {path} is not an Ed25519 key (gitmem signs with Ed25519 only)")
    seed = key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    return Ed25519Signer(seed)


def write_private_key(path: Path, signer: Ed25519Signer, comment: str) -> None:
    """Write *signer* as an OpenSSH private key (0600) and its ``.pub`` beside it."""
    private = Ed25519PrivateKey.from_private_bytes(signer.seed).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption(),
    )
    atomic_write(path, private, 0o600)
    atomic_write(
        path.with_name(path.name + ".pub"),
        f"{signer.public_key.openssh()} {comment}\n".encode(),
        0o644,
    )


def read_config(home: Path) -> dict[str, str]:
    """The identity settings (``principal``, ``signing_key``) of ``$GITMEM_HOME``.

    Raises:
        InputError: the config file is malformed.
    """
    from gitmem.store.config import IDENTITY_KEYS, read_file

    data = read_file(home / CONFIG_FILE)
    for key in IDENTITY_KEYS:
        if key in data and not isinstance(data[key], str):
            raise InputError(f"{home / CONFIG_FILE}: {key} must be a string")
    return {k: v for k, v in data.items() if k in IDENTITY_KEYS}


def load_identity(home: Path) -> Identity:
    """The active principal and key.

    Raises:
        SigningKeyError: no key yet (``gitmem init`` was never run) or the key is unusable.
    """
    config = read_config(home)
    if "signing_key" not in config or "principal" not in config:
        raise SigningKeyError("no signing key yet: run `gitmem init` first")
    key_path = home / config["signing_key"]
    return Identity(_configured(home, config), load_private_key(key_path), key_path)


def _configured(home: Path, config: dict[str, str]) -> str:
    """The principal of *config*, checked as ``gitmem init`` checks it.

    Raises:
        SigningKeyError: not one that can sign (empty, or not one word).
    """
    try:
        return validate_principal(config["principal"])
    except InputError as e:
        raise SigningKeyError(
            f"{home / CONFIG_FILE}: {e}; run `gitmem init --name PRINCIPAL`"
        ) from e


def init_identity(home: Path, principal: str, adopt: Path | None) -> InitOutcome:
    """Create (or adopt) the signing key and trust it; safe to run again.

    Raises:
        InputError: a bad principal.
        SigningKeyError: the key to adopt is unusable.
    """
    validate_principal(principal)
    config = read_config(home)
    created = adopted = False
    if adopt is not None:
        signer = load_private_key(adopt)
        key_path = _key_file(home, signer.public_key)
        if not key_path.exists():
            write_private_key(key_path, signer, principal)
            adopted = True
    elif "signing_key" in config and (home / config["signing_key"]).exists():
        key_path = home / config["signing_key"]
        signer = load_private_key(key_path)
    else:
        signer = Ed25519Signer.generate()
        key_path = _key_file(home, signer.public_key)
        write_private_key(key_path, signer, principal)
        created = True
    wanted = {"principal": principal, "signing_key": str(key_path.relative_to(home))}
    changed = wanted != config
    if changed:
        from gitmem.store.config import read_file, write_file

        write_file(home / CONFIG_FILE, {**read_file(home / CONFIG_FILE), **wanted})
    added = _trust_key(home / ALLOWED_SIGNERS, principal, signer.public_key)
    return InitOutcome(Identity(principal, signer, key_path), created, adopted, added, changed)


def own_keys(home: Path) -> list[OwnKey]:
    """Every key in ``$GITMEM_HOME/keys/``, the active one marked."""
    config = read_config(home)
    active = home / config["signing_key"] if "signing_key" in config else None
    keys: list[OwnKey] = []
    for pub in sorted((home / KEYS_DIR).glob("*.pub")):
        try:
            key = PublicKey.from_openssh(pub.read_text(encoding="utf-8"))
        except (OSError, FormatError):
            continue
        private = pub.with_suffix("")
        keys.append(OwnKey(private, key, active is not None and private == active))
    return keys


def export_lines(home: Path) -> list[str]:
    """The allowed_signers lines of your own keys, for a teammate's or the team's file."""
    config = read_config(home)
    if "principal" not in config:
        raise SigningKeyError("no signing key yet: run `gitmem init` first")
    principal = _configured(home, config)
    return [allowed_signers_line(principal, k.public_key) for k in own_keys(home)]


def _key_file(home: Path, key: PublicKey) -> Path:
    short = key.fingerprint().removeprefix("SHA256:")[:12].replace("/", "_").replace("+", "-")
    return home / KEYS_DIR / f"ed25519-{short}"


def _trust_key(path: Path, principal: str, key: PublicKey) -> bool:
    """Add a line for (principal, key) to an allowed_signers file unless one covers it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    existing = parse_allowed_signers(text, str(path))
    if any(
        e.key == key and e.matches_principal(principal) and e.allows_namespace("gitmem")
        for e in existing.entries
    ):
        return False
    if text and not text.endswith("\n"):
        text += "\n"
    atomic_write(path, (text + allowed_signers_line(principal, key) + "\n").encode(), 0o644)
    return True
