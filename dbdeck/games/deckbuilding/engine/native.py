"""How the optional compiled engine (``tools/build_accelerated.py``) treats a
class: ``mypyc_attr`` from mypy's extensions when they are installed, and a
decorator that changes nothing when they are not (a plain install).

mypyc reads the decorator from the source; at run time it does nothing. A
class marked ``@python_class`` stays an ordinary Python class when its module
is compiled: one whose subclasses are plain Python classes (the task classes,
the Villain modules' state) or override its class constants.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

_C = TypeVar("_C")

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # a plain install: nothing compiled, nothing to mark

        def mypyc_attr(*_args: Any, **_kwargs: Any) -> Callable[[_C], _C]:
            return lambda cls: cls


__all__ = ["mypyc_attr"]
