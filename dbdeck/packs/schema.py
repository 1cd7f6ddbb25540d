"""JSON Schemas of card files, for every game: field docs from the models'
own docstrings, and writing a schema out."""

from __future__ import annotations

import ast
import inspect
import itertools
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from dbdeck.packs.reading import one_line

__all__ = ["field_docs", "write_schema"]


def field_docs(module: ModuleType) -> dict[str, dict[str, str]]:
    """For each class of a module, its fields' docstrings by field name."""
    tree = ast.parse(inspect.getsource(module))
    docs: dict[str, dict[str, str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        fields: dict[str, str] = {}
        body = node.body
        for statement, following in itertools.pairwise(body):
            if (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                fields[statement.target.id] = inspect.cleandoc(following.value.value)
        docs[node.name] = fields
    return docs


def write_schema(schema: dict[str, Any], output: Path | None) -> int:
    """Write a JSON Schema to ``output`` (standard output when ``None``);
    a file that cannot be written is one line and exit 1."""
    text = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    if output is None:
        sys.stdout.write(text)
        return 0
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"cannot write {one_line(str(output))}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {one_line(str(output))}", file=sys.stderr)
    return 0
