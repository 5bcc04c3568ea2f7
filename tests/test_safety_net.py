"""placeholder"""


def test_placeholder() -> None:
    assert 1 + 1 == 2
