"""Commands that change or explain an item's life: resolve, reverify, supersede, forget,
show, promote, gate."""

from __future__ import annotations
