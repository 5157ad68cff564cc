"""Memory beyond this clone: sync with git remotes, backup and restore, signed releases.

Every history that arrives is checked with the checkers of ``checkers`` (memory records
against the memory trust roots, release records against the release root) before any of
it is merged.
"""
