"""Reading a log's JSON text in one pass: the fast path of ``replay.log.parse_log`` and ``read_logs``.

Full reading is ``json.loads`` and then the game's pydantic model validated from the decoded
object, where every card, seat and call goes through a Python validator (the liberal readers)
and the models each game nests are built one by one. Logs as bots write them are plain:
canonical spellings, standard notation. For those, each game gives a *reading validator*: the
same models, validated straight from the JSON text by pydantic-core (``validate_json``), with
each liberal Python reader replaced by a dictionary of the canonical spellings (a C lookup; an
unknown spelling is read by the game's own reader once and remembered) or by a core-schema
check, and with no Python validator in the nested models.

The reading validator is only ever a shortcut. It accepts a subset of what full validation
accepts and builds the very models full validation builds (same classes, fields, fields set
and extras); on anything else it gives up (``None``) and the caller reads the text in full, so
every error a user sees comes from full validation. ``tests/replay/test_reading.py`` checks
both paths against each other on generated logs, mutated logs and garbage.

>>> from replay.games import get, names
>>> from replay.log import parse_log
>>> text = get(names()[0]).selfplay(seed=1).canonical_json()
>>> read_text(text) == parse_log(text)
True
>>> read_text('{"format":"chess/1","events":[]}') is None  # no game's: left to full reading
True
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping

from pydantic import BaseModel, ValidationError
from pydantic_core import SchemaValidator

from .games import UnknownGameError, game_for_format

#: where a log says which game it is; only a hint (the reading validator checks ``format`` itself)
_FORMAT = re.compile(r'"format"\s*:\s*"([^"\\]{1,100})"')
#: how many spellings other than the canonical ones a lookup remembers
MAX_REMEMBERED = 4096


class Lookup(dict):
    """Text -> value: the canonical spellings given, and any other text that ``read`` (the
    game's own liberal reader) takes, remembered once read (up to ``MAX_REMEMBERED``).

    Its ``__getitem__`` is what the reading validator calls for each card or seat: a hit costs a
    dictionary lookup in C. Anything that is not text, or that ``read`` refuses, is an error, so
    the reading validator gives up and full validation reads the log.

    >>> seats = Lookup({"A": 0}, lambda text: {"a": 0}[text.strip().lower()])
    >>> seats["A"], seats[" a"], " a" in seats
    (0, 0, True)
    >>> seats[5]
    Traceback (most recent call last):
    ...
    ValueError: not text
    """

    __slots__ = ("read",)

    def __init__(self, items: Mapping[str, Any], read: Callable[[str], Any]):
        super().__init__(items)
        self.read = read

    def __missing__(self, key: Any) -> Any:
        if type(key) is not str:
            raise ValueError("not text")
        try:
            value = self.read(key)
        except (ValueError, LookupError) as exc:  # the reader's refusal (PydanticCustomError is a ValueError)
            raise ValueError("not read") from exc
        if len(self) < MAX_REMEMBERED:
            self[key] = value
        return value


def _walk(node: Any, plain: Mapping[Callable, Any], dropped: frozenset, fields: Mapping[tuple[type, str], Any],
          models: set[type], model: type | None = None) -> Any:
    if isinstance(node, list):
        return [_walk(item, plain, dropped, fields, models, model) for item in node]
    if not isinstance(node, dict):
        return node
    kind = node.get("type")
    function = node.get("function")
    function = function.get("function") if isinstance(function, dict) else None
    if kind in ("function-before", "function-after", "function-wrap") and function in dropped:
        return _walk(node["schema"], plain, dropped, fields, models, model)
    if kind == "function-plain" and function in plain:
        replacement = plain[function]
        if isinstance(replacement, dict):  # a core schema in its place
            return replacement
        node = {**node, "function": {"type": "no-info", "function": replacement}}
        return node
    if kind == "model":
        models.add(node["cls"])
        model = node["cls"]
    out = {}
    for key, value in node.items():
        if kind == "model-fields" and key == "fields":
            out[key] = {name: (fields[(model, name)] if (model, name) in fields
                               else _walk(field, plain, dropped, fields, models, model))
                        for name, field in value.items()}
        elif key == "metadata":
            continue
        else:
            out[key] = _walk(value, plain, dropped, fields, models, model)
    return out


def reading_validator(log_model: type[BaseModel], plain: Mapping[Callable, Any] | None = None,
                      dropped: Iterable[Callable] = (),
                      fields: Mapping[tuple[type, str], Any] | None = None) -> SchemaValidator:
    """A validator of JSON text that builds ``log_model`` as its own validator does, with changes:

    - ``plain``: each Python function of a plain validator (a liberal reader such as a card's)
      -> the function to call instead (``Lookup(...).__getitem__``), or a core schema to check
      with instead (``core_schema.str_schema(pattern=...)``);
    - ``dropped``: functions of before, after or wrap validators left out (the caller checks
      after validation what they would have refused);
    - ``fields``: ``(model class, field name)`` -> the model field's core schema to use instead.

    Each change must accept no more than what it replaces and give the same values. Every nested
    model is validated by this schema (not by the model's own prebuilt validator, which
    pydantic-core would otherwise reuse for it).
    """
    models: set[type] = set()
    schema = _walk(log_model.__pydantic_core_schema__, dict(plain or {}), frozenset(dropped), dict(fields or {}),
                   models)
    # pydantic-core reuses a complete model class's own validator for a nested model schema, which
    # would bring back the Python readers this schema replaces; it looks only at the class's own
    # ``__pydantic_complete__``, so that is set aside while this schema is built
    complete = {cls: cls.__dict__.get("__pydantic_complete__") for cls in models}
    try:
        for cls in models:
            type.__setattr__(cls, "__pydantic_complete__", False)
        return SchemaValidator(schema)
    finally:
        for cls, value in complete.items():
            type.__setattr__(cls, "__pydantic_complete__", value)


class TextReader:
    """One game's fast reading of JSON text: ``read(text)`` gives the log model or ``None``.

    ``build`` makes the reading validator (on first use); ``check``, if given, is called with the
    validated model and returns False when the log must be left to full validation (what a
    dropped validator would have refused).
    """

    __slots__ = ("_build", "_check", "_validate")

    def __init__(self, build: Callable[[], SchemaValidator], check: Callable[[Any], bool] | None = None):
        self._build = build
        self._check = check
        self._validate: Callable[[str], Any] | None = None

    def __call__(self, text: str) -> Any:
        validate = self._validate
        if validate is None:
            validate = self._validate = self._build().validate_json
        try:
            log = validate(text)
        except ValidationError:
            return None
        except TypeError:  # an unhashable value where a card or seat goes: a lookup cannot take it
            return None
        if self._check is not None and not self._check(log):
            return None
        return log


def read_text(text: str) -> Any:
    """The log model of a game's JSON ``text`` if the game's fast reading takes it, else ``None``.

    The caller has made sure that ``text`` holds no lone surrogate (``replay.log`` refuses those
    with the place named, which this path does not do).
    """
    found = _FORMAT.search(text)
    if found is None:
        return None
    fmt = found.group(1)
    reader = _READERS.get(fmt)
    if reader is None:
        try:
            game = game_for_format(fmt)
        except UnknownGameError:
            return None
        reader = game.read_json
        if reader is None:
            return None
        _READERS[fmt] = reader
    return reader(text)


#: format -> its game's ``read_json``, once looked up
_READERS: dict[str, Callable[[str], Any]] = {}
