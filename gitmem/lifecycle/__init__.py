"""What each item is now, and the commands that change it.

``replay``, ``carry``, ``sameclaim`` and ``governance/`` are pure (records and values in,
state out); ``memory`` reads and verifies the store and replays it; ``commands`` and
``show`` are the lifecycle commands (resolve, reverify, supersede, note, forget, promote,
gate, show). Imports the core and the store.
"""
