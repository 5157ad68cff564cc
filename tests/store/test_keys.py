"""Key files: OpenSSH interop, permissions, adoption rules, GITMEM_HOME."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers import needs_ssh_keygen

from gitmem.core.errors import InputError, SigningKeyError
from gitmem.store.home import gitmem_home
from gitmem.store.keys import init_identity, load_identity, load_private_key


def test_gitmem_home_resolution() -> None:
    assert gitmem_home({"GITMEM_HOME": "/a"}) == Path("/a")
    assert gitmem_home({"XDG_CONFIG_HOME": "/x"}) == Path("/x/gitmem")
    assert gitmem_home({"HOME": "/h"}).parts[-2:] == (".config", "gitmem")


@needs_ssh_keygen
def test_openssh_reads_the_key_we_write(home: Path) -> None:
    identity = init_identity(home, "alice", None).identity
    derived = subprocess.run(
        ["ssh-keygen", "-y", "-f", str(identity.key_path)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert derived.split()[:2] == identity.signer.public_key.openssh().split()[:2]
    assert not [p for p in identity.key_path.parent.iterdir() if p.name.startswith(".")]


def test_load_identity_before_init() -> None:
    with pytest.raises(SigningKeyError, match="gitmem init"):
        load_identity(Path("/nonexistent-gitmem-home"))


@needs_ssh_keygen
@pytest.mark.parametrize(
    ("kind", "passphrase", "refusal"),
    [("ed25519", "secret", "passphrase"), ("ecdsa", "", "Ed25519")],
    ids=["passphrase-protected", "not-ed25519"],
)
def test_unusable_keys_are_refused(
    tmp_path: Path, kind: str, passphrase: str, refusal: str
) -> None:
    key = tmp_path / "key"
    subprocess.run(["ssh-keygen", "-q", "-t", kind, "-N", passphrase, "-f", str(key)], check=True)
    with pytest.raises(SigningKeyError, match=refusal):
        load_private_key(key)


def test_garbage_key_file_is_refused(tmp_path: Path) -> None:
    key = tmp_path / "k"
    key.write_text("hello")
    with pytest.raises(SigningKeyError, match="not an OpenSSH private key"):
        load_private_key(key)


def test_principal_change_adds_a_trust_line_and_keeps_the_key(home: Path) -> None:
    first = init_identity(home, "alice", None)
    second = init_identity(home, "alice@work", None)
    assert second.identity.signer.seed == first.identity.signer.seed
    assert second.added_signer and not second.created_key
    lines = (home / "allowed_signers").read_text().splitlines()
    assert [line.split()[0] for line in lines] == ["alice", "alice@work"]


def test_bad_principal(home: Path) -> None:
    with pytest.raises(InputError):
        init_identity(home, "a,b", None)
