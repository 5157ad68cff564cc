"""Git hooks: installed as a good citizen (``install``, ``templates/``), and the work they
start, detached (``run``)."""
