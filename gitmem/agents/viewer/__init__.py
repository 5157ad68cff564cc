"""``gitmem serve``: a local, read-only web viewer of the memory.

The brief with its badges (degraded items exactly as the brief degrades them), each
item's history, a recall search box, the warnings and the trust roots in use; memory as
of any moment with ``?as_of=``. Server-rendered HTML and one small stylesheet: no
script, no build step, no request to anywhere else. It listens on 127.0.0.1 unless
``--host`` says otherwise (with a warning), and it never writes memory or moves a ref.
See ``docs/viewer.md``.
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Callable
from pathlib import Path

from gitmem.agents.viewer.server import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    Viewer,
    is_loopback,
    make_server,
)
from gitmem.core.errors import InputError, NegativeResult
from gitmem.store.repo import Store

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "serve"]


def serve(
    repo: str,
    home: Path,
    host: str | None = None,
    port: int = DEFAULT_PORT,
    say: Callable[[str], None] = print,
) -> None:
    """Serve the memory of the repository at *repo* until interrupted. *host* None is
    127.0.0.1; any address that is not loopback is served only because it was asked
    for, with a warning on stderr. *say* is told the address once listening.

    Raises:
        GitError: *repo* is not a git repository.
        InputError: a port out of range, an empty host or one that names no address.
        NegativeResult: the address cannot be listened on.
    """
    Store.discover(repo)  # a folder that is no repository fails here, not per request
    if not 0 <= port <= 65535:
        raise InputError(f"--port {port}: give a port from 0 to 65535")
    address = DEFAULT_HOST if host is None else host
    if not address.strip():
        # An empty host would listen on every interface: that must be asked for by name.
        raise InputError("--host '': give an address (127.0.0.1, ::1, or 0.0.0.0 for all)")
    try:
        socket.getaddrinfo(address, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise InputError(f"--host {address!r} is not an address this machine can listen on") from e
    loopback = is_loopback(address)
    if not loopback:
        print(
            f"gitmem: warning: serving memory on {address}, beyond this machine: anyone who "
            "can reach it reads everything this memory holds (read-only). Leave out --host "
            "to serve on 127.0.0.1 only.",
            file=sys.stderr,
        )
    try:
        server = make_server(Viewer(repo, home, loopback), address, port)
    except OSError as e:
        raise NegativeResult(f"cannot listen on {address}:{port}: {e.strerror or e}") from e
    name, bound = str(server.server_address[0]), int(server.server_address[1])
    shown = f"[{name}]" if ":" in name else name
    say(f"gitmem serve: http://{shown}:{bound}/ (read-only; Ctrl-C stops it)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
