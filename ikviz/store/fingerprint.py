"""Which code a result depends on: a digest of a block's module and the ikviz modules it imports.

A result kept on disk is served again only while this digest is unchanged.
The digest reads each module's compiled code (instructions, names and
constants) without its docstrings and line numbers, so an edit of a docstring, a comment or the layout of a
file keeps the results, and a change of code in the block's module, or in any
ikviz module it imports directly or through others, discards them (their keys
no longer match; the disk cache's LRU eviction removes them later).

Each module's digest is computed once per process: a server runs the code it
imported at start, whatever the files say later.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
import threading
from pathlib import Path
from types import CodeType

__all__ = ["block_fingerprint", "clear", "digest_code", "module_fingerprint", "module_imports"]

_LOCK = threading.Lock()
_OWN: dict[str, str] = {}  # module name -> digest of its own code (docstrings out)
_IMPORTS: dict[str, tuple[str, ...]] = {}  # module name -> the modules of its closure it imports
_CLOSURE: dict[str, str] = {}  # module name -> digest of its code and the closure's


def clear() -> None:
    """Forget every digest computed so far (a test that edits a module's file calls this)."""
    with _LOCK:
        _OWN.clear()
        _IMPORTS.clear()
        _CLOSURE.clear()


def _source_path(name: str) -> Path | None:
    """The source file of module ``name`` (None if it is not a module), found without importing it."""
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None)
    if path is None:
        try:  # imports the parent package (an ikviz package, quick), never the module itself
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError, AttributeError):
            return None
        path = spec.origin if spec is not None else None
    if not path or not str(path).endswith(".py"):
        return None
    return Path(path)


def digest_code(code: CodeType, digest) -> None:
    """Feed ``code``'s instructions, names and constants to ``digest``: not its line numbers or file name.

    Examples
    --------
    >>> import hashlib
    >>> def f(x):
    ...     return x + 1
    >>> a, b = hashlib.blake2b(digest_size=8), hashlib.blake2b(digest_size=8)
    >>> digest_code(f.__code__, a); digest_code((lambda x: x + 1).__code__, b)
    >>> a.hexdigest() == b.hexdigest()   # names differ: co_name is part of it
    False
    """
    digest.update(code.co_code)
    digest.update(repr((code.co_name, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars,
                        code.co_argcount, code.co_kwonlyargcount, code.co_flags)).encode())
    for const in code.co_consts:
        if isinstance(const, CodeType):
            digest_code(const, digest)
        else:
            digest.update(_stable(const).encode())


def _stable(const) -> str:
    """``const``'s type and value as text that is the same in every process: a frozenset constant (``x in
    {"a", "b"}`` compiles to one) is written in sorted order, not in its hash order, which differs from one
    process to the next (string hashing is randomised), and would give every new server a new digest."""
    if isinstance(const, frozenset):
        return f"frozenset({sorted(_stable(c) for c in const)})"
    if isinstance(const, tuple):
        return f"tuple({[_stable(c) for c in const]})"
    return repr((type(const).__name__, const))


_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w.][\w., \t]*)", re.M)


def _imports(source: str, package: str) -> set[str]:
    """The modules ``source`` imports anywhere, lazy imports inside functions included (a line in a
    docstring that reads as an import counts too: a module too many only makes the digest stricter)."""
    found = set()
    for match in _IMPORT.finditer(source):
        found.update(part.split(" as ")[0].strip() for part in match.group(1).split(","))
    for dots, module, names in _FROM.findall(source):
        level = len(dots)
        base = module
        if level:
            parts = package.split(".") if package else []
            parts = parts[:len(parts) - (level - 1)] if level > 1 else parts
            base = ".".join(parts + ([module] if module else []))
        if not base:
            continue
        names = [n.split(" as ")[0].strip() for n in names.strip("()").split(",") if n.strip()]
        # `from . import surfaces` depends on that module; `from .runner import resolve` on .runner
        modules = [f"{base}.{n}" for n in names if n != "*" and _followed(base) and _source_path(f"{base}.{n}")]
        found.update(modules)
        if len(modules) < len(names):
            found.add(base)
    found.discard("")
    return found


def _package_of(name: str, path: Path | None) -> str:
    """The package a module's relative imports start from."""
    return name if path is not None and path.name == "__init__.py" else name.rpartition(".")[0]


#: the packages whose modules a block's digest follows through imports (the installed libraries change
#: results too rarely to key them all)
FOLLOWED = ("ikviz",)


def _followed(name: str) -> bool:
    return any(name == top or name.startswith(top + ".") for top in FOLLOWED)


def _parse(name: str) -> tuple[str, tuple[str, ...]]:
    path = _source_path(name)
    if path is None:
        return "", ()
    try:
        source = path.read_text(encoding="utf-8")
        # optimize=2 leaves docstrings (and asserts) out of the code
        code = compile(source, str(path), "exec", dont_inherit=True, optimize=2)
    except (OSError, SyntaxError, ValueError):
        return "", ()
    imports = _imports(source, _package_of(name, path))
    digest = hashlib.blake2b(digest_size=16)
    digest_code(code, digest)
    digest = digest.hexdigest()
    followed = tuple(sorted(m for m in imports if _followed(m) and m != name and _source_path(m) is not None))
    return digest, followed


def module_imports(name: str) -> tuple[str, ...]:
    """The ikviz modules that module ``name`` imports itself (not through others).

    Examples
    --------
    >>> "ikviz.runner" in module_imports("ikviz.experiments.density")
    True
    """
    with _LOCK:
        if name not in _IMPORTS:
            _OWN[name], _IMPORTS[name] = _parse(name)
        return _IMPORTS[name]


def module_fingerprint(name: str) -> str:
    """A digest of module ``name``'s code (docstrings, comments and layout left out) and of every ikviz
    module it imports, directly or through others; "" for a module without Python source.

    Examples
    --------
    >>> len(module_fingerprint("ikviz.runner"))
    32
    >>> module_fingerprint("ikviz.runner") == module_fingerprint("ikviz.runner")
    True
    """
    with _LOCK:
        if name in _CLOSURE:
            return _CLOSURE[name]
    seen, todo = {name}, [name]
    while todo:
        for other in module_imports(todo.pop()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    digest = hashlib.blake2b(digest_size=16)
    with _LOCK:
        for module in sorted(seen):
            digest.update(f"{module}:{_OWN.get(module, '')};".encode())
        _CLOSURE[name] = digest.hexdigest()
        return _CLOSURE[name]


def block_fingerprint(fn) -> str:
    """:func:`module_fingerprint` of the module that defines ``fn`` (a block of :mod:`ikviz.runner`).

    Examples
    --------
    >>> from ikviz.runner import within
    >>> block_fingerprint(within) == module_fingerprint("ikviz.runner")
    True
    """
    fn = getattr(fn, "__wrapped__", fn)
    module = getattr(fn, "__module__", None)
    return module_fingerprint(module) if module else ""
