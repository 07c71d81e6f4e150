"""Validation of request bodies against Discord's own OpenAPI description.

The description is vendored in ``spec/`` (MIT, see ``spec/LICENSE``) so the
repository never reaches outside itself. The emulator checks request bodies:
the point is to catch payloads the real Discord would refuse, which a test
against a lenient emulator would otherwise let through. Its own answers are
checked by its tests (``validate_response``), once, not at every request.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
from jsonschema.exceptions import ValidationError, relevance  # type: ignore[import-untyped]
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).with_name("spec") / "openapi.json"
SPEC_URI = "urn:discord-openapi"

# discord.py sends some snowflakes (e.g. ``recipient_id``) as JSON integers
# where the spec says string; Discord accepts both, so the check must too.
BY_TYPE = "x-branch-by-type"
LENIENT_SNOWFLAKE: dict[str, Any] = {
    "anyOf": [
        {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
        {"type": "integer", "minimum": 0},
    ]
}


@dataclass(frozen=True)
class Violation:
    """The first (most relevant) reason a body does not match the spec."""

    method: str
    route: str
    message: str
    where: str

    def __str__(self) -> str:
        return f"{self.method} {self.route}: {self.message} (at {self.where})"


@cache
def load_spec() -> dict[str, Any]:
    """The vendored spec with lenient snowflakes; parsed once per process (1.2 MB)."""
    spec: dict[str, Any] = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    spec["components"]["schemas"]["SnowflakeType"] = LENIENT_SNOWFLAKE
    _discriminate_unions(spec, spec)
    return spec


def _discriminate_unions(node: Any, spec: dict[str, Any]) -> None:
    """Rewrite ``anyOf``/``oneOf`` unions told apart by ``type`` into ``if/then`` pairs.

    Same verdicts, but only the branch of the ``type`` that was sent is checked
    (by the ``x-branch-by-type`` keyword this module adds to the validator):
    a ``oneOf`` of six component kinds otherwise validates every component six
    times (20 ms for one table message, most of a bot test's run time), and its
    errors name the wrong branch. Unions whose branches share a ``type`` value,
    or have none, are left alone.
    """
    if isinstance(node, list):
        for item in node:
            _discriminate_unions(item, spec)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _discriminate_unions(value, spec)
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        if not isinstance(branches, list) or len(branches) < 2:
            continue
        if _is_named_constants(branches):
            # Discord's enums are a oneOf of titled consts: an enum says the same, faster.
            del node[keyword]
            node["enum"] = [branch["const"] for branch in branches]
            continue
        kinds = [_literal_types(branch, spec) for branch in branches]
        flat = [v for k in kinds if k is not None for v in k]
        if any(k is None for k in kinds) or len(flat) != len(set(flat)):
            continue
        del node[keyword]
        node.setdefault("allOf", []).append({
            "type": "object", "required": ["type"],
            "properties": {"type": {"enum": sorted(flat)}},
            BY_TYPE: [{"values": k, "schema": branch}
                      for k, branch in zip(kinds, branches, strict=True)],
        })


def _by_type(validator: Any, branches: list[dict[str, Any]], instance: Any,
             schema: dict[str, Any]) -> Iterator[ValidationError]:
    """The ``x-branch-by-type`` keyword: validate against the branch for ``type`` only."""
    if not isinstance(instance, dict) or "type" not in instance:
        return  # "type" and "required" of the same schema report that
    for branch in branches:
        if instance["type"] in branch["values"]:
            yield from validator.descend(instance, branch["schema"])
            return


DiscordValidator = jsonschema.validators.extend(jsonschema.Draft202012Validator,
                                               {BY_TYPE: _by_type})


def _is_named_constants(branches: list[Any]) -> bool:
    if not all(isinstance(b, dict) and "const" in b
               and set(b) <= {"const", "title", "description"} for b in branches):
        return False
    values = [json.dumps(b["const"]) for b in branches]
    return len(values) == len(set(values))


def _literal_types(branch: Any, spec: dict[str, Any]) -> list[Any] | None:
    """The ``type`` values a union branch (possibly a local ``$ref``) admits."""
    if not isinstance(branch, dict):
        return None
    ref = branch.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        branch = spec["components"]["schemas"][ref.rsplit("/", 1)[1]]
    prop = branch.get("properties", {}).get("type")
    if not isinstance(prop, dict) or "object" not in _as_list(branch.get("type", "object")):
        return None
    if "const" in prop:
        return [prop["const"]]
    enum = prop.get("enum")
    return list(enum) if isinstance(enum, list) else None


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


@cache
def _registry() -> Registry[Any]:
    resource: Resource[Any] = Resource.from_contents(load_spec(), default_specification=DRAFT202012)
    registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
    return registry


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


@cache
def _validator(method: str, route: str, content_type: str) -> Any:
    operation = load_spec()["paths"].get(route, {}).get(method.lower())
    if not operation or "requestBody" not in operation:
        return None
    content = operation["requestBody"]["content"]
    if content_type not in content:
        content_type = "application/json"
    if content_type not in content:
        return None
    ref = f"{SPEC_URI}#/" + _pointer("paths", route, method.lower(), "requestBody", "content",
                                     content_type, "schema")
    return DiscordValidator({"$ref": ref}, registry=_registry())


def _narrow(errors: Iterator[ValidationError]) -> ValidationError | None:
    """Pick the error a person would want to read first.

    Discord's unions (interaction callbacks, components) are ``anyOf``/``oneOf``
    lists told apart by a ``type`` field. The generic "not valid under any of
    the given schemas", or ``best_match``'s guess of a branch, names the wrong
    schema; descend instead into the branch whose ``type`` admits the value
    that was sent.
    """
    candidates = list(errors)
    if not candidates:
        return None
    error = max(candidates, key=relevance)
    while error.context:
        inner = list(error.context)
        if error.validator in ("anyOf", "oneOf"):
            inner = _same_type_branch(error) or inner
        error = max(inner, key=relevance)
    return error


def _same_type_branch(error: ValidationError) -> list[ValidationError]:
    """The errors of the union branch meant for the instance that was sent."""
    instance = error.instance
    chosen = {i for i, branch in enumerate(error.validator_value) if _branch_fits(branch, instance)}
    return [e for e in error.context or () if e.relative_schema_path[0] in chosen]


JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}


def _json_type(value: Any) -> set[str]:
    if isinstance(value, bool):
        return {"boolean"}
    if isinstance(value, int):
        return {"integer", "number"}
    if isinstance(value, float):
        return {"number"}
    return {JSON_TYPES.get(type(value), "object")}


def _branch_fits(branch: dict[str, Any], instance: Any) -> bool:
    """Whether a union branch is about this kind of value (JSON type, then ``type`` field)."""
    schema = _resolve(branch)
    declared = schema.get("type")
    if declared is not None:
        allowed = {declared} if isinstance(declared, str) else set(declared)
        if not allowed & _json_type(instance):
            return False
    if isinstance(instance, dict) and "type" in instance:
        prop = schema.get("properties", {}).get("type")
        if isinstance(prop, dict):
            values = [prop["const"]] if "const" in prop else prop.get("enum")
            if isinstance(values, list) and instance["type"] not in values:
                return False
    return True


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if not isinstance(ref, str):
        return schema
    if ref.startswith("#"):
        ref = SPEC_URI + ref
    contents: dict[str, Any] = _registry().resolver().lookup(ref).contents
    return contents


def validate_body(method: str, route: str, body: Any, content_type: str = "application/json",
                  ) -> Violation | None:
    """Check ``body`` against the spec's request schema for ``method route``."""
    if _validator(method, route, content_type) is None:
        return None
    # Bots resend the same bodies (retries, unchanged re-renders): remember verdicts.
    return _validate_text(method, route, json.dumps(body, sort_keys=True), content_type)


@lru_cache(maxsize=512)
def _validate_text(method: str, route: str, text: str, content_type: str) -> Violation | None:
    error = _narrow(_validator(method, route, content_type).iter_errors(json.loads(text)))
    if error is None:
        return None
    where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    message = error.message if len(error.message) < 300 else error.message[:300] + "..."
    return Violation(method.upper(), route, message, where)


@cache
def _response_validator(method: str, route: str, status: str) -> Any:
    operation = load_spec()["paths"].get(route, {}).get(method.lower()) or {}
    schema = operation.get("responses", {}).get(status, {}).get("content", {}).get(
        "application/json", {}).get("schema")
    if schema is None:
        return None
    ref = f"{SPEC_URI}#/" + _pointer("paths", route, method.lower(), "responses", status,
                                     "content", "application/json", "schema")
    return DiscordValidator({"$ref": ref}, registry=_registry())


def validate_response(method: str, route: str, body: Any, status: int = 200,
                      ) -> Violation | None:
    """Check an answer against the spec's schema for ``method route`` answering
    ``status``; None also when the spec describes no such answer."""
    validator = _response_validator(method, route, str(status))
    if validator is None:
        return None
    error = _narrow(validator.iter_errors(body))
    if error is None:
        return None
    where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return Violation(method.upper(), route, error.message[:300], where)
