"""Records (``hashikit.records``) behave as the dataclasses they replace on the start-up path:
the same fields, defaults, refusals, equality, hashing, repr and pickling, compared call for call
with a dataclass declared the same way."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hashikit.records import Fresh, Record, fields, replace


class Base(Record):
    a: int
    b: str = "x"


class Child(Base):
    c: list = Fresh(list)
    d: float = 0.5


class Frozen(Record, frozen=True):
    rule: str
    cells: tuple = ()


class FrozenChild(Frozen):
    extra: int = 0


class Keywords(Record, kw_only=True):
    first: int = 1
    needed: str


class Posted(Record):
    value: int
    twice: int = 0

    def __post_init__(self) -> None:
        self.twice = 2 * self.value


@dataclasses.dataclass
class DBase:
    a: int
    b: str = "x"


@dataclasses.dataclass
class DChild(DBase):
    c: list = dataclasses.field(default_factory=list)
    d: float = 0.5


@dataclasses.dataclass(frozen=True)
class DFrozen:
    rule: str
    cells: tuple = ()


@dataclasses.dataclass(kw_only=True)
class DKeywords:
    first: int = 1
    needed: str


PAIRS = [(Base, DBase), (Child, DChild), (Frozen, DFrozen), (Keywords, DKeywords)]


def outcome(cls, args, kwargs):
    """What a call makes: the exception's type, or the fields' values."""
    try:
        made = cls(*args, **kwargs)
    except TypeError:
        return TypeError
    return tuple(getattr(made, f.name) for f in dataclasses.fields(made)) if dataclasses.is_dataclass(made) \
        else tuple(getattr(made, name) for name in fields(made))


values = st.one_of(st.integers(), st.text(max_size=3), st.just(()), st.floats(allow_nan=False))
names = st.sampled_from(["a", "b", "c", "d", "rule", "cells", "first", "needed", "zzz"])


@settings(max_examples=300, deadline=None)
@given(pair=st.sampled_from(PAIRS), args=st.lists(values, max_size=5),
       kwargs=st.dictionaries(names, values, max_size=4))
def test_a_record_takes_and_refuses_what_the_same_dataclass_does(pair, args, kwargs):
    record, dataclass = pair
    assert outcome(record, args, kwargs) == outcome(dataclass, args, kwargs)


def test_fields_come_in_order_bases_first_with_their_defaults():
    assert fields(Child) == ("a", "b", "c", "d")
    assert fields(FrozenChild) == ("rule", "cells", "extra")
    c = Child(3)
    assert (c.a, c.b, c.c, c.d) == (3, "x", [], 0.5)
    assert Child(1).c is not Child(1).c  # Fresh: a new list each time
    assert repr(Child(1, "y")) == "Child(a=1, b='y', c=[], d=0.5)"


def test_equality_is_by_class_and_fields():
    assert Base(1) == Base(1, "x")
    assert Base(1) != Base(2)
    assert Base(1) != Child(1)  # a subclass with the same leading fields is another thing
    assert Base(1) != (1, "x")


def test_frozen_records_refuse_changes_and_hash_by_their_fields():
    f = Frozen("crossing", ((0, 1),))
    with pytest.raises(AttributeError):
        f.rule = "other"
    with pytest.raises(AttributeError):
        del f.rule
    assert hash(f) == hash(Frozen("crossing", ((0, 1),)))
    assert len({f, Frozen("crossing", ((0, 1),)), Frozen("loop")}) == 2
    with pytest.raises(AttributeError):
        FrozenChild("x").extra = 1  # frozen is inherited


def test_plain_records_change_and_are_not_hashable():
    b = Base(1)
    b.a = 5
    assert b == Base(5)
    with pytest.raises(TypeError):
        hash(b)


def test_keyword_only_records_take_no_positions_and_post_init_runs():
    with pytest.raises(TypeError, match="positional"):
        Keywords(1, "x")
    assert Keywords(needed="n") == Keywords(first=1, needed="n")
    assert Posted(4).twice == 8


@pytest.mark.parametrize("made", [Child(1, "y", [2], 0.25), Frozen("r", ((1, 2),)), Keywords(needed="n")])
def test_records_pickle_and_copy(made):
    assert pickle.loads(pickle.dumps(made)) == made
    assert copy.deepcopy(made) == made and copy.copy(made) == made


def test_the_hashikit_records_are_records():
    """The records on the start-up path are the module's, not dataclasses (which would load
    ``inspect`` at start-up again); test_startup holds the import list."""
    from hashikit.checker import CheckReport, Violation
    from hashikit.formats import Document, Format
    from hashikit.limits import Limits
    from hashikit.solvers.base import Capabilities, SolveResult

    for cls in (CheckReport, Violation, Document, Format, Limits, Capabilities, SolveResult):
        assert issubclass(cls, Record) and not dataclasses.is_dataclass(cls), cls
    assert SolveResult(status="solved", solution="s").solutions == ["s"]  # its __post_init__


def test_replace_makes_a_new_record_with_changes():
    from hashikit import limits

    small = replace(limits.WEB, max_input_bytes=100)
    assert small.max_input_bytes == 100 and small.max_side == limits.WEB.max_side and limits.WEB.max_input_bytes != 100
    with pytest.raises(TypeError):
        replace(limits.WEB, no_such_field=1)
