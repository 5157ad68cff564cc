"""Chat exports into memory, approved by a person (``gitmem import-chat``, ``gitmem pending``).

``export`` reads a Telegram Desktop export or generic chat JSON; ``voices`` settles who
is ``me``; ``prompt`` and ``propose`` turn the chat into item drafts, each from one
message with its voice and date; ``audit`` asks a second model about each; ``pending`` is
the staging area in ``.git/gitmem/pending/``; ``flow`` is what the commands do. The guide
is docs/chat-import.md.
"""
