"""The effect vocabulary's parser (model/vocab.py)."""

from __future__ import annotations

import pytest

from model.errors import CaseError
from model.vocab import parse_effect


@pytest.mark.parametrize("raw", [{"redirect": "target", "shield": 2}, {"shield": 2, "redirect": "target"}])
def test_partial_redirection_in_either_key_order(raw: dict) -> None:
    spec = parse_effect(raw, "effects[0]")
    assert spec.kind == "redirect" and spec.shield == ("int", 2)


def test_two_effect_kinds_are_an_error() -> None:
    with pytest.raises(CaseError) as err:
        parse_effect({"shield": 2, "multiply": 2}, "effects[0]")
    assert err.value.path == "effects[0].multiply"


def test_redirect_with_another_kind_is_an_error() -> None:
    with pytest.raises(CaseError) as err:
        parse_effect({"redirect": "target", "shield": 2, "multiply": 2}, "effects[0]")
    assert err.value.path == "effects[0].multiply"
