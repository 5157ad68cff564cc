"""An independent verifier of a gitmem export, with no gitmem code: what a security team
would run, from the package index and stock OpenSSH only.

    python intoto_verifier.py BUNDLE ALLOWED_SIGNERS SCHEMA

For every line of the bundle (an in-toto bundle of DSSE envelopes):

1. the DSSE signature, by securesystemslib's ``Envelope.verify`` with the Ed25519 keys of
   the allowed_signers file (keyid: the key's OpenSSH fingerprint);
2. the Statement against the published JSON Schema (jsonschema), for memory items;
3. the item subject's ``sha256`` and ``gitBlob`` against the item bytes it carries;
4. the checkpoint's and each event's SSHSIG receipt, by ``ssh-keygen -Y verify``;
5. the quote: the message's bytes at each range of the snapshot are the quote's.

Records and snapshots travel once per bundle: each line's are looked up by digest among
the bytes any line carries that hash to it.

Prints one JSON line per envelope, ``{"line": N, "ok": bool, "problems": [...]}``, and
``{"gitmem_imported": bool}`` last; exits 1 when any envelope fails.
"""

from __future__ import annotations

import base64
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import jsonschema
from cryptography.hazmat.primitives.serialization import load_ssh_public_key
from securesystemslib.dsse import Envelope
from securesystemslib.exceptions import VerificationError
from securesystemslib.signer import SSlibKey

MEMORY_ITEM = "https://gitmem.dev/attestation/memory-item/v1"


def fingerprint(openssh: str) -> str:
    blob = base64.b64decode(openssh.split()[1])
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")


def keys_of(allowed_signers: Path) -> list[SSlibKey]:
    keys = []
    for line in allowed_signers.read_text().splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#") or "ssh-ed25519" not in fields:
            continue
        at = fields.index("ssh-ed25519")
        openssh = f"ssh-ed25519 {fields[at + 1]}"
        public = load_ssh_public_key(openssh.encode())
        keys.append(SSlibKey.from_crypto(public, keyid=fingerprint(openssh)))
    return keys


def content(descriptor: dict) -> bytes:
    return base64.b64decode(descriptor["content"])


def ssh_verify(record: bytes, receipt: bytes, writer: str, signers: Path) -> str | None:
    with tempfile.TemporaryDirectory() as scratch:
        sig = Path(scratch) / "receipt.sig"
        sig.write_bytes(receipt)
        command = ["ssh-keygen", "-Y", "verify", "-f", str(signers), "-I", writer, "-n", "gitmem"]
        done = subprocess.run(
            [*command, "-s", str(sig)],
            input=record,
            capture_output=True,
            check=False,
        )
    return None if done.returncode == 0 else done.stderr.decode(errors="replace").strip()


def message_text(snapshot: bytes, media: str, index: int) -> bytes:
    if media.startswith("text/plain"):
        return snapshot
    line = snapshot.decode().split("\n")[index]
    return json.loads(line)["text"].encode()


def check_item(statement: dict, signers: Path, carried: dict[str, tuple[bytes, str]]) -> list:
    problems = []
    predicate = statement["predicate"]
    item = content(predicate["item"])
    subject = statement["subject"][0]["digest"]
    if hashlib.sha256(item).hexdigest() != subject["sha256"]:
        problems.append("subject sha256 is not the item's")
    blob = hashlib.sha1(b"blob %d\0" % len(item) + item).hexdigest()
    if blob != subject["gitBlob"]:
        problems.append("subject gitBlob is not the item's")
    records = [predicate["checkpoint"], *predicate["lifecycle"]["events"]]
    for signed in records:
        digest = signed["record"]["digest"]["sha256"]
        if digest not in carried:
            problems.append(f"{signed['record']['name']} is in no line of the bundle")
            continue
        record = carried[digest][0]
        writer = json.loads(record)["writer"]
        receipt = signed["receipt"]
        why = (
            "no receipt"
            if receipt is None
            else ssh_verify(record, content(receipt), writer, signers)
        )
        if why is not None:
            problems.append(f"receipt of {signed['record']['name']}: {why}")
    for found in [*(s["record"] for s in records), *predicate["snapshots"]]:
        if "content" in found and found["digest"]["sha256"] not in carried:
            problems.append(f"{found['name']} does not hash to its digest")
    quote = predicate["quote"]
    if quote is not None and quote["ranges"]:
        data, media = carried[quote["snapshot"]]
        text = message_text(data, media, quote["message"])
        said = [text[start:end].decode() for start, end in quote["ranges"]]
        if " … ".join(said) != quote["text"]:
            problems.append("the quote is not the snapshot's bytes at its ranges")
    return problems


def carried_in(lines: list[str]) -> dict[str, tuple[bytes, str]]:
    """Every record and snapshot a line carries whose bytes hash to its digest: each
    travels once per bundle, and a bundle is read in no particular order."""
    found: dict[str, tuple[bytes, str]] = {}
    for line in lines:
        predicate = json.loads(base64.b64decode(json.loads(line)["payload"]))["predicate"]
        signed = [predicate.get("checkpoint"), *predicate.get("lifecycle", {}).get("events", [])]
        descriptors = [s["record"] for s in signed if s] + predicate.get("snapshots", [])
        for descriptor in descriptors:
            if "content" in descriptor:
                data = content(descriptor)
                if hashlib.sha256(data).hexdigest() == descriptor["digest"]["sha256"]:
                    found[descriptor["digest"]["sha256"]] = (data, descriptor["mediaType"])
    return found


def main(bundle: Path, signers: Path, schema_path: Path) -> int:
    keys = keys_of(signers)
    schema = json.loads(schema_path.read_text())
    validator = jsonschema.Draft202012Validator(schema)
    lines = bundle.read_text().splitlines()
    carried = carried_in(lines)
    failed = False
    for number, line in enumerate(lines, 1):
        problems: list[str] = []
        envelope = Envelope.from_dict(json.loads(line))
        try:
            envelope.verify(keys, 1)
        except VerificationError as e:
            problems.append(f"DSSE: {e}")
        statement = json.loads(envelope.payload)
        if statement.get("predicateType") == MEMORY_ITEM:
            problems += [f"schema: {e.message}" for e in validator.iter_errors(statement)]
            if not problems:
                problems += check_item(statement, signers, carried)
        failed = failed or bool(problems)
        print(json.dumps({"line": number, "ok": not problems, "problems": problems}))
    print(json.dumps({"gitmem_imported": any(m.startswith("gitmem") for m in sys.modules)}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
