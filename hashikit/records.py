"""Records: classes whose fields are their annotations, as with dataclasses, made without
generating code.

Every command starts by loading the model's neighbours that carry data: the limits, the checker's
report, the formats' registry, the engines' result and the answer shapes.  Made with
``dataclasses`` they cost a plain ``hashikit solve`` about a third of its start-up: importing
``dataclasses`` loads ``inspect`` (with ``ast``, ``dis`` and ``tokenize``), about 11 ms here, and
each ``@dataclass`` compiles its methods, some 0.3 ms a class (``benchmarks/results/startup.md``).
A :class:`Record` reads its fields once, when the class is made, and shares one ``__init__``,
``__eq__`` and ``__repr__`` with every other record.

    class Violation(Record, frozen=True):
        rule: str
        message: str
        cells: tuple = ()

    class Report(Record):
        violations: list = Fresh(list)      # a new empty list for each report

The fields are the class's annotations, its bases' first, in order; a class attribute of the same
name is the field's default, and :class:`Fresh` makes a default anew for each record.  A record
takes its fields by position or keyword (``kw_only=True``: by keyword only), runs
``__post_init__`` when it has one, equals another of its class with equal fields and shows its
fields in ``repr``.  A frozen record refuses to change (``AttributeError``) and can be hashed.
Records pickle and copy like any object.  Modules that load only for heavier work (the generator,
the deducer, books, pictures) use ``dataclasses`` as usual.
"""

from __future__ import annotations

MISSING = object()


class Fresh:
    """A default made anew for each record: ``Fresh(list)`` gives every record its own empty list."""

    __slots__ = ("make",)

    def __init__(self, make) -> None:
        self.make = make

    def __repr__(self) -> str:
        return f"Fresh({self.make.__name__})"


class Record:
    """Base of every record; see the module's text.  A class keyword ``frozen`` or ``kw_only`` is
    inherited by subclasses."""

    #: the fields' names in order, bases' first
    _fields: tuple[str, ...] = ()
    #: each field's default (a :class:`Fresh` for one made anew); a field without one is required
    _defaults: dict[str, object] = {}
    _frozen = False
    _kw_only = False

    def __init_subclass__(cls, frozen: bool | None = None, kw_only: bool | None = None, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if frozen is not None:
            cls._frozen = frozen
        if kw_only is not None:
            cls._kw_only = kw_only
        names, defaults = list(cls._fields), dict(cls._defaults)
        for name, kind in cls.__dict__.get("__annotations__", {}).items():
            if str(kind).startswith(("ClassVar", "typing.ClassVar")):
                continue
            if name not in names:
                names.append(name)
            default = cls.__dict__.get(name, MISSING)
            if default is MISSING:
                defaults.pop(name, None)
            else:
                defaults[name] = default
        cls._fields, cls._defaults = tuple(names), defaults
        if "__hash__" not in cls.__dict__:
            cls.__hash__ = Record._hash if cls._frozen else None

    def __init__(self, *args: object, **kwargs: object) -> None:
        names = self._fields
        if args and (self._kw_only or len(args) > len(names)):
            raise TypeError(f"{type(self).__name__}() takes {0 if self._kw_only else len(names)} positional "
                            f"arguments but {len(args)} were given")
        values = dict(zip(names, args))
        for name, value in kwargs.items():
            if name not in self._defaults and name not in names:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {name!r}")
            if name in values:
                raise TypeError(f"{type(self).__name__}() got multiple values for argument {name!r}")
            values[name] = value
        put = object.__setattr__
        for name in names:
            if name in values:
                put(self, name, values[name])
                continue
            default = self._defaults.get(name, MISSING)
            if default is MISSING:
                raise TypeError(f"{type(self).__name__}() missing required argument: {name!r}")
            put(self, name, default.make() if isinstance(default, Fresh) else default)
        post = getattr(self, "__post_init__", None)
        if post is not None:
            post()

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def _hash(self) -> int:
        return hash(self._values())

    def __setattr__(self, name: str, value: object) -> None:
        if self._frozen:
            raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if self._frozen:
            raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")
        object.__delattr__(self, name)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"


def fields(record: Record | type[Record]) -> tuple[str, ...]:
    """The names of a record's (or record class's) fields, in order."""
    return record._fields


def replace(record: Record, **changes: object) -> Record:
    """A new record of ``record``'s class with ``changes`` to its fields (as ``dataclasses.replace``):
    ``replace(limits.WEB, max_input_bytes=100)``."""
    return type(record)(**{**{name: getattr(record, name) for name in record._fields}, **changes})
