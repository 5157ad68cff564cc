"""Git hooks: installed as a good citizen (``install``, ``templates/``), and the work they
start, detached (``run``), queued for one worker per repository (``queue``, ``worker``)."""
