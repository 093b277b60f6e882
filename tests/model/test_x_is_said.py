"""X is the choice of the player casting or activating (CR 107.3a): a case that casts or activates
something reading X without saying it (x: N, or x: {min, max}) is an error, never X = 0."""

from __future__ import annotations

from typing import Any

import pytest

from mtg_outcomes.model import CaseErrors, parse_case


def _case(action: dict[str, Any]) -> dict[str, Any]:
    return {"id": "x-unsaid", "players": [{"name": "you"}, {"name": "A"}], "active": "you",
            "battlefield": [{"id": "bears", "card": "Grizzly Bears", "controller": "A"},
                            {"id": "archon", "card": "Vengeful Archon", "controller": "you"}],
            "actions": [action]}


@pytest.mark.parametrize(("action", "path"), [
    ({"cast": {"card": "Blaze", "controller": "you", "target": "bears"}}, "actions[0].cast.x"),
    ({"activate": {"id": "archon", "target": "A"}}, "actions[0].activate.x"),
])
def test_x_not_given_is_an_error(action: dict[str, Any], path: str) -> None:
    with pytest.raises(CaseErrors) as err:
        parse_case(_case(action))
    assert path in str(err.value) and "107.3a" in str(err.value)


@pytest.mark.parametrize("x", [0, 2, {"min": 1, "max": 2}])
def test_x_given_is_taken(x: Any) -> None:
    case = parse_case(_case({"cast": {"card": "Blaze", "controller": "you", "target": "bears", "x": x}}))
    assert case.actions
