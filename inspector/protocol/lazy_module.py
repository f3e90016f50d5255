"""A module that is imported on first use, for the heavy ones a session may never need at once."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__all__ = ["LazyModule"]


class LazyModule(ModuleType):
    """Stands for the module ``name``; the first attribute read imports it (then reads come from it).

    A session that validates holds one for ``inspector.protocol.validation`` (mcp-types' models take about half a
    second to import): building a session costs nothing, the import happens when the first frame is checked — by
    then the app has usually imported it already, while the server was starting.
    """

    def __getattr__(self, attr: str) -> Any:
        value = getattr(importlib.import_module(self.__name__), attr)
        setattr(self, attr, value)
        return value
