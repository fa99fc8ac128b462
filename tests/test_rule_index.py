"""The rule indexes of the rules docs: ids well formed and unique, each sentence quoted from
its rulebook, every id pinned by at least one scenario test marked with it, no marker naming
an id no index has, and the docs' tests columns as the markers make them."""

import pytest

from . import rule_index as RI

PREFIXES = [p for p in RI.INDEXES if RI.rules(p)]


def test_paint_the_line_has_an_index():
    assert "PTL" in PREFIXES and len(RI.rules("PTL")) >= 40


@pytest.mark.parametrize("prefix", PREFIXES)
def test_ids_are_numbered_once_each(prefix):
    ids = [r.id for r in RI.rules(prefix)]
    assert all(RI.ID.match(i) and i.startswith(prefix + "-") for i in ids), ids
    assert len(set(ids)) == len(ids)
    assert all(r.sentence and r.reading for r in RI.rules(prefix))


@pytest.mark.parametrize("prefix", PREFIXES)
def test_every_sentence_is_the_rulebooks(prefix):
    """Each rule's sentence and each sentence set aside is quoted word for word (parts left
    out marked "...") from the rulebook the game was restated from."""
    book = RI.rulebook(prefix)
    quotes = [r.sentence for r in RI.rules(prefix)] + [s for s, _ in RI.out_of_scope(prefix)]
    missing = [q for q in quotes if not RI.found_in(q, book)]
    assert not missing, missing


def test_a_misquoted_sentence_is_found_out():
    book = "A player wins by reaching 11 points first. A roll of 1 is always a failure."
    assert RI.found_in('"A player wins by ... 11 points first."', book)
    assert not RI.found_in('"A player wins by reaching 12 points first."', book)
    assert not RI.found_in('"A roll of 1 ... A player wins"', book)  # out of order
    assert not RI.found_in("no quotes", book)


@pytest.mark.parametrize("prefix", PREFIXES)
def test_every_rule_has_a_scenario_test(prefix):
    tagged = RI.tagged_tests()
    bare = [r.id for r in RI.rules(prefix) if not tagged.get(r.id)]
    assert not bare, f"rules with no test marked @pytest.mark.rule(...): {bare}"


def test_every_marker_names_an_indexed_rule():
    known = {r.id for p in RI.INDEXES for r in RI.rules(p)}
    unknown = {rid: t for rid, t in RI.tagged_tests().items()
               if rid not in known and rid.split("-")[0] in PREFIXES}
    assert not unknown


@pytest.mark.parametrize("prefix", PREFIXES)
def test_the_docs_list_the_tests_of_each_rule(prefix):
    path = RI.INDEXES[prefix][0]
    assert RI.rendered(prefix) == path.read_text(encoding="utf-8"), (
        f"{path.name}: run `python -m tests.rule_index --write`")
