"""Schemathesis hooks of the `fuzz` step (docs/RELIABILITY-fuzz.md).

Loaded with SCHEMATHESIS_HOOKS=hooks (this folder on PYTHONPATH). Adds the check
`error_body_format` and, for path parameters, often uses ids of records the stack holds
(FUZZ_KNOWN_PARAMETERS), so the fuzzer reaches the handlers behind a found resource and not
only their 404 answers.
"""

import json
import os
import re

import schemathesis
from hypothesis import strategies as st

JSONP = re.compile(r"^/\*\*/[A-Za-z0-9_]{1,50}\((.*)\);$", re.S)
REQUEST_LINE = re.compile(r"^[A-Z]+ /[^?\s]*$")


def _body_of(response):
    """The JSON of a response, unwrapped from JSONP when the request asked for a callback."""
    text = response.content.decode("utf-8", errors="replace")
    content_type = ",".join(response.headers.get("content-type", []))
    if "javascript" in content_type:
        match = JSONP.match(text)
        if not match:
            raise AssertionError(f"JSONP body is not /**/NAME(JSON);: {text[:200]!r}")
        text = match.group(1)
    elif "json" not in content_type:
        raise AssertionError(f"error response is {content_type or 'untyped'}, not JSON: {text[:200]!r}")
    return json.loads(text)


@schemathesis.check
def error_body_format(ctx, response, case):
    """Every error is `{msg: string, code: integer, request: "METHOD /path"}` (docs/api/README.md, "Errors")."""
    if response.status_code < 400 or case.method.upper() == "HEAD":
        return None
    try:
        body = _body_of(response)
    except ValueError as err:
        raise AssertionError(f"error body is not JSON: {err}") from None
    if not isinstance(body, dict):
        raise AssertionError(f"error body is not an object: {body!r}")
    problems = []
    if not isinstance(body.get("msg"), str):
        problems.append("msg is not a string")
    if not isinstance(body.get("code"), int) or isinstance(body.get("code"), bool):
        problems.append("code is not an integer")
    request = body.get("request")
    if not isinstance(request, str) or not REQUEST_LINE.match(request):
        problems.append(f"request is not 'METHOD /path': {request!r}")
    elif request.split(" ", 1)[0] != response.request.method:
        problems.append(f"request names {request.split(' ', 1)[0]}, the request was {response.request.method}")
    if problems:
        raise AssertionError(f"error body {body!r}: " + "; ".join(problems))
    return None


# [{"path": regex, "param": name, "values": [...]}]: values of records the fuzz stack holds,
# by the operation path they fit (the first rule whose regex matches the path wins)
KNOWN = json.loads(os.environ.get("FUZZ_KNOWN_PARAMETERS", "[]"))


def _known_values(path, name):
    for rule in KNOWN:
        if rule["param"] == name and re.search(rule["path"], path):
            return rule["values"]
    return None


@schemathesis.hook
def flatmap_path_parameters(ctx, path_parameters):
    """Often, a path parameter takes the id of a record that exists, not only a random one."""
    if not path_parameters or ctx.operation is None:
        return st.just(path_parameters)
    choices = {}
    for name, value in path_parameters.items():
        known = _known_values(ctx.operation.path, name)
        choices[name] = st.one_of(st.sampled_from(known), st.just(value)) if known else st.just(value)
    return st.fixed_dictionaries(choices)
