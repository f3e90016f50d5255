"""The probe's typed samples for prompt arguments and the text it keeps of ``isError`` results."""

from __future__ import annotations

import pytest

from inspector.cli.probe import PROMPT_ARGUMENT_SAMPLE, RESULT_TEXT_LIMIT, prompt_argument_sample, result_text


@pytest.mark.parametrize(
    ("argument", "sample"),
    [
        ({"name": "resourceId", "description": "ID of the text resource to fetch"}, "1"),
        ({"name": "count"}, "1"),
        ({"name": "max_items", "description": "How many items to return"}, "1"),
        ({"name": "temperature", "description": "Sampling temperature"}, "1"),
        ({"name": "include_audio", "description": "'yes' or 'no' (prompt arguments are strings)"}, "yes"),
        ({"name": "verbose", "description": "A boolean flag"}, "true"),
        ({"name": "city", "description": "Name of the city"}, PROMPT_ARGUMENT_SAMPLE),
        ({"name": "code"}, PROMPT_ARGUMENT_SAMPLE),
        ({"name": "admin_name", "description": "Who administers it"}, PROMPT_ARGUMENT_SAMPLE),
    ],
)
def test_prompt_argument_samples_follow_name_and_description(argument: dict[str, str], sample: str) -> None:
    value, why = prompt_argument_sample(argument)
    assert value == sample
    assert (why is None) is (sample == PROMPT_ARGUMENT_SAMPLE)


def test_result_text_joins_text_blocks_and_truncates() -> None:
    result = {
        "isError": True,
        "content": [{"type": "text", "text": "Insufficient"}, {"type": "image"}, {"type": "text", "text": "funds"}],
    }
    assert result_text(result) == "Insufficient\nfunds"
    assert result_text({"isError": True, "content": [{"type": "image", "data": ""}]}) is None
    assert result_text({"isError": True}) is None
    long = result_text({"content": [{"type": "text", "text": "x" * (RESULT_TEXT_LIMIT + 25)}]})
    assert long is not None and long.startswith("x" * RESULT_TEXT_LIMIT) and long.endswith("(25 more characters)")
