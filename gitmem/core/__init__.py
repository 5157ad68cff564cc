"""The pure core: bytes and text in, values or typed errors out.

Records and their canonical bytes, SSHSIG receipts, allowed_signers trust roots and
revocation, the check of one stored record, the quote verifier, transcripts and their
snapshot encoding, checkable claims. No git, disk, clock, environment, subprocess or click
(tests/test_architecture.py enforces it); everything else of gitmem builds on this.
"""
