"""Issue 14 §5.5: the checks the viewers make of results (outputSchema, base64 payloads, mimeTypes) as
diagnostics on the answer's frame (``inspector.client.output_check``), so the log and the counts see them."""

from __future__ import annotations

import base64

from inspector.client.output_check import OutputSchemaCheck, payload_diagnostics
from inspector.protocol.diagnostics import DiagnosticCode, Severity

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 16).decode()


def test_the_check_learns_schemas_from_every_tools_list_page() -> None:
    check = OutputSchemaCheck()
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    assert check("tools/list", None, {"tools": [{"name": "a", "outputSchema": schema}, {"name": "b"}]}) == []
    assert check("tools/list", {"cursor": "2"}, {"tools": [{"name": "c", "outputSchema": schema}]}) == []
    assert set(check.schemas) == {"a", "c"}
    (missing,) = check("tools/call", {"name": "c"}, {"content": [], "structuredContent": {}})
    assert missing.path == "$.result.structuredContent.n" and "required property is missing" in missing.message
    assert check("tools/call", {"name": "a"}, {"content": [], "structuredContent": {"n": 1}}) == []
    assert check("tools/call", {"name": "b"}, {"content": [], "structuredContent": {"n": "x"}}) == []  # no schema
    assert check("tools/call", {"name": "a"}, {"content": [], "isError": True}) == []  # errors are exempt
    # a tool listed again without a schema is no longer checked
    check("tools/list", None, {"tools": [{"name": "a"}]})
    assert check("tools/call", {"name": "a"}, {"content": [], "structuredContent": {"n": "x"}}) == []


def test_payloads_that_do_not_decode_or_contradict_their_mime_type_are_found() -> None:
    result = {
        "content": [
            {"type": "text", "text": "fine"},
            {"type": "image", "data": PNG, "mimeType": "image/png"},
            {"type": "image", "data": "not base64!", "mimeType": "image/png"},
            {"type": "audio", "data": PNG, "mimeType": "audio/wav"},
            {"type": "resource", "resource": {"uri": "x:1", "blob": "%%%", "mimeType": "image/png"}},
        ]
    }
    found = payload_diagnostics("tools/call", result)
    assert [(d.path, d.severity) for d in found] == [
        ("$.result.content[2].data", Severity.VIOLATION),
        ("$.result.content[3].data", Severity.WARNING),
        ("$.result.content[4].resource.blob", Severity.VIOLATION),
    ]
    assert all(d.code is DiagnosticCode.CONTENT for d in found)
    assert "image/png" in found[1].message and "audio/wav" in found[1].message


def test_resources_and_prompts_payloads_are_checked_too() -> None:
    read = {"contents": [{"uri": "x:1", "blob": PNG, "mimeType": "image/jpeg"}, {"uri": "x:2", "text": "t"}]}
    (mismatch,) = payload_diagnostics("resources/read", read)
    assert mismatch.path == "$.result.contents[0].blob" and mismatch.severity is Severity.WARNING
    prompt = {"messages": [{"role": "user", "content": {"type": "image", "data": "", "mimeType": "image/png"}}]}
    (empty,) = payload_diagnostics("prompts/get", prompt)
    assert empty.path == "$.result.messages[0].content.data" and "empty" in empty.message
    assert payload_diagnostics("tools/list", {"tools": []}) == []
    # the check a connection installs runs them on every result
    assert OutputSchemaCheck()("resources/read", None, read) == [mismatch]
