"""Typed request bodies: each JSON endpoint reads its body as a msgspec Struct, so a
wrong type, a missing field or a number out of range is refused at the boundary with
the translated 400 of answerdesk/errors.py naming the field, before any service runs;
and the OpenAPI document's request bodies are generated from the same classes
(``request_body``, ``components``), so the document cannot drift from the code.

msgspec rather than pydantic 2: the phone's save, read with either, measured in
bench/body_bench.py (bench/README.md, "Typed bodies").
"""

from __future__ import annotations

import re
import typing
from typing import Any, ClassVar, TypeVar

import msgspec

from .errors import DeskError

B = TypeVar("B", bound="Body")


def N_(msgid: str) -> str:
    """Mark a msgid for extraction (a Babel keyword); translated when the error is shown."""
    return msgid


NOT_AN_OBJECT = N_("The request body must be a JSON object")
MISSING = N_("%(field)s is missing")
WHOLE_NUMBER = N_("%(field)s must be a whole number")
NUMBER = N_("%(field)s must be a number")
OUT_OF_RANGE = N_("%(field)s is out of range")
TEXT = N_("%(field)s must be text")
TOO_LONG = N_("%(field)s is too long: at most %(max_length)s characters")
TRUE_OR_FALSE = N_("%(field)s must be true or false")
ONE_OF = N_("%(field)s must be one of %(choices)s")
INVALID = N_("%(field)s is not valid")


class Body(msgspec.Struct, kw_only=True):
    """A JSON request body. Unknown keys are ignored (an older or newer phone may send
    more); ``messages`` gives a field its own refusal where a page or a test knows one,
    and ``refuse`` lets a class ask its service for the refusal (the same words as the
    form's)."""

    messages: ClassVar[dict[str, str]] = {}

    @classmethod
    def refuse(cls, field: str, body: Any) -> DeskError | None:
        """The refusal of ``field``'s value in ``body`` where the class knows a better one
        than the generic kind's; None: the generic one."""
        if field in cls.messages:
            return DeskError(cls.messages[field], field=field)
        return None


#: Every Body a route's description named, for the document's components.
_NAMED: dict[str, type[Body]] = {}

_AT = re.compile(r" - at `\$\.?([^`]*)`$")
_MISSING = re.compile(r"missing required field `([^`]+)`")
_LENGTH = re.compile(r"of length <= (\d+)")


def read(model: type[B], body: Any) -> B:
    """``body`` (the parsed JSON, web.request_json) as ``model``, or a DeskError naming
    the first field that is wrong. Strict: "7" is no number, true is no 1."""
    try:
        return msgspec.convert(body, model, strict=True)
    except msgspec.ValidationError as error:
        raise _refusal(model, str(error), body) from None


def _refusal(model: type[Body], text: str, body: Any) -> DeskError:
    missing = _MISSING.search(text)
    at = _AT.search(text)
    where = at.group(1) if at else ""
    if missing:  # a nested object's missing field is named by its path ("last.received_ms")
        field = f"{where}.{missing.group(1)}" if where else missing.group(1)
    else:
        field = where
    if not field:
        return DeskError(NOT_AN_OBJECT)
    top = re.split(r"[.\[]", field, maxsplit=1)[0]
    own = model.refuse(top, body)
    if own is not None:
        return own
    if missing:
        return DeskError(MISSING, field=field)
    if "Invalid enum value" in text:
        choices = _choices(model, top)
        if choices:
            return DeskError(ONE_OF, field=field, choices=", ".join(choices))
        return DeskError(INVALID, field=field)
    length = _LENGTH.search(text)
    if length:
        return DeskError(TOO_LONG, field=field, max_length=int(length.group(1)))
    if re.search(r"Expected `[^`]*` [<>]=?", text):
        return DeskError(OUT_OF_RANGE, field=field)
    expected = re.match(r"Expected `([^`]*)`", text)
    kinds = set(expected.group(1).replace(" ", "").split("|")) - {"null"} if expected else set()
    if kinds == {"int"}:
        return DeskError(WHOLE_NUMBER, field=field)
    if kinds == {"float"} or kinds == {"int", "float"}:
        return DeskError(NUMBER, field=field)
    if kinds == {"str"}:
        return DeskError(TEXT, field=field)
    if kinds == {"bool"}:
        return DeskError(TRUE_OR_FALSE, field=field)
    return DeskError(INVALID, field=field)


def _choices(model: type[Body], name: str) -> list[str]:
    """The words a Literal field takes (for the refusal that lists them)."""
    hint = typing.get_type_hints(model, include_extras=True).get(name)
    found: list[str] = []
    pending = [hint]
    while pending:
        item = pending.pop()
        if typing.get_origin(item) is typing.Literal:
            found.extend(str(v) for v in typing.get_args(item))
        else:
            pending.extend(typing.get_args(item))
    return sorted(found)


def request_body(model: type[Body], *, required: bool = True) -> dict[str, Any]:
    """The OpenAPI requestBody of a route that reads ``model``; the schema itself goes
    into the document's components (``components``), by the class's name: two classes
    of one name (two formats' "Decision") would describe one route by the other's."""
    named = _NAMED.setdefault(model.__name__, model)
    if named is not model:
        raise ValueError(f"two request bodies named {model.__name__}: "
                         f"{named.__module__} and {model.__module__}")
    return {"required": required, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{model.__name__}"}}}}


def components() -> dict[str, Any]:
    """The JSON Schemas of every Body a route's description named, generated by msgspec."""
    return schema_components(_NAMED)


def schema_components(named: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI components of ``named``'s classes (and the classes they hold), by
    name, as msgspec generates them, without an empty ``required`` list (OpenAPI 3.0
    does not allow one)."""
    _, schemas = msgspec.json.schema_components(
        [named[name] for name in sorted(named)], ref_template="#/components/schemas/{name}")
    for schema in schemas.values():
        if schema.get("required") == []:
            del schema["required"]
    return schemas
