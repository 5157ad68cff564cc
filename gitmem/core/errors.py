"""One error root for everything gitmem reports to a user.

Each family carries the exit code the command line uses for it, so that the
click layer only has to catch :class:`GitmemError` and print one line:

* 2 — bad input or usage (:class:`InputError` and :class:`UnwritableError`,
  :class:`GitError`, :class:`SigningKeyError`)
* 3 — integrity failures found (:class:`IntegrityError`)
* 1 — other expected negatives (:class:`NegativeResult`)

Anything else that escapes a command is a bug in gitmem: :data:`INTERNAL_EXIT`.
"""

from __future__ import annotations

INTERNAL_EXIT = 70
"""The exit code of an unexpected error, a bug (``EX_SOFTWARE`` of sysexits.h): never 1,
which means an expected "no"."""


class GitmemError(Exception):
    """Root of every error gitmem raises on purpose. The message is one human sentence."""

    exit_code = 1


class InputError(GitmemError):
    """The user gave us something we cannot use: a missing file, invalid JSON, a bad item."""

    exit_code = 2


class UnwritableError(InputError, OSError):
    """A file or folder gitmem must write cannot be: a ``GITMEM_HOME`` or ``.git/gitmem``
    that is not a usable folder, a full disk. Still an :class:`OSError`, so that a writer
    that only tries its best (a cache, a lookup file) keeps ignoring it."""


class GitError(GitmemError):
    """The git side is not usable: not a repository, a ref we cannot read."""

    exit_code = 2


class SigningKeyError(GitmemError):
    """No usable signing key, or a key file we cannot read."""

    exit_code = 2


class TrustError(GitmemError):
    """A signature or trust root problem: a receipt that does not verify, an untrusted key."""

    exit_code = 3


class IntegrityError(GitmemError):
    """Stored bytes do not hold what they claim: edited records, missing receipts."""

    exit_code = 3


class FormatError(IntegrityError):
    """Bytes that are not in the format they must be in (a record, a receipt, a key line)."""


class NegativeResult(GitmemError):
    """An expected 'no': a quote that is not verbatim, a lost race retried too often."""

    exit_code = 1
