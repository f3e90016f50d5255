"""The command palette's fuzzy ranking (``inspector.content.fuzzy``): every word must match in order, letters may be
apart; prefixes, whole substrings and word starts rank first; equal scores put the shorter text first."""

from __future__ import annotations

from inspector.content.fuzzy import fuzzy_score, rank


def test_letters_apart_match_in_order_only() -> None:
    assert fuzzy_score("rcn", "Reconnect") is not None
    assert fuzzy_score("ncr", "Reconnect") is None
    assert fuzzy_score("kbd short", "Keyboard shortcuts…") is not None
    assert fuzzy_score("kbd zz", "Keyboard shortcuts…") is None  # every word must match
    assert fuzzy_score("", "anything") == 0


def test_prefix_and_substring_rank_before_scattered_letters() -> None:
    items = ["Disconnect", "Connect selected profile", "Close connection tab", "Reconnect"]
    assert rank("connect", items, str)[0] == "Connect selected profile"  # a prefix first
    assert rank("recon", items, str) == ["Reconnect"]
    scattered, whole = fuzzy_score("cnt", "Close connection tab"), fuzzy_score("con", "Close connection tab")
    assert scattered is not None and whole is not None and whole > scattered


def test_word_starts_beat_the_middle_of_a_word() -> None:
    assert rank("log", ["Catalog view", "Search the log"], str) == ["Search the log", "Catalog view"]


def test_ties_put_the_shorter_text_first_and_an_empty_query_keeps_the_order() -> None:
    items = ["Greeting that asks your name", "Greeting"]
    assert rank("greeting", items, str) == ["Greeting", "Greeting that asks your name"]
    assert rank("  ", items, str) == items
    assert rank("GREET", ["greet_me"], str) == ["greet_me"]  # case-insensitive


def test_the_wider_text_matches_whole_words_and_scores_less() -> None:
    items = [("Tab 1", "Go → Connection tab"), ("Greeting", "Prompt"), ("Connect selected profile", "Connection")]
    found = rank("connect", items, lambda i: i[0], also=lambda i: i[1])
    assert found == [items[2], items[0]]  # the title's match first, the group's after it
    assert rank("greeting prompt", items, lambda i: i[0], also=lambda i: i[1]) == [items[1]]
    assert rank("grt prmpt", items, lambda i: i[0], also=lambda i: i[1]) == []  # scattered letters: main text only
    readme = ("README (markdown)", "Resource")
    run = ("Run (call the tool, get the prompt, read the resource)", "Action")
    assert rank("readme resource", [run, readme], lambda i: i[0], also=lambda i: i[1])[0] == readme
