"""Records that cannot be real are refused with the line and the reason (more tiles of a letter than the set has,
an exchange of more tiles than a rack holds, tiles the recorded rack does not hold), and an old Czech record in an
8-bit encoding without its encoding line is read in that encoding with a warning naming it."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from device.cli import gcg as gcg_cli
from engine.gcg import decode_gcg, encode_gcg, read_gcg, undeclared_encoding
from engine.replay import ReplayError, differences
from engine.tiles import tile_set

HEAD = "#character-encoding UTF-8\n#player1 ann Ann\n#player2 bob Bob\n"


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="partiar")
    gcg_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(list(argv))
    return int(args.func(args))


def replay_error(text: str) -> ReplayError:
    with pytest.raises(ReplayError) as caught:
        differences(read_gcg(text, "t.gcg"), tile_set("czech"))
    return caught.value


def test_a_second_z_on_the_board_is_refused_naming_the_line() -> None:
    # the Czech set has one G: the second one laid cannot be real
    error = replay_error(HEAD + ">ann: AGT 8G GA +6 6\n>bob: GTO 9H GO +6 6\n")
    assert error.code == "too_many_tiles" and error.line == 5
    assert error.values["letter"] == "G" and error.values["count"] == "2" and error.values["limit"] == "1"


def test_five_zs_through_the_cli_exit_2_in_czech(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "z.gcg"
    path.write_text(HEAD + ">ann: ZZZZZ 8D ZZZZZ +50 50\n", encoding="utf-8")
    assert run("gcg", "verify", str(path)) == 2
    err = capsys.readouterr().err
    assert "z.gcg" in err and "5 x Z" in err and "jen 2 x Z" in err


def test_a_nine_tile_exchange_is_refused() -> None:
    error = replay_error(HEAD + ">ann: ABCDEFGHI -ABCDEFGHI +0 0\n")
    assert error.code == "exchange_size" and error.values == {"count": "9", "limit": "7"}


def test_letters_not_on_the_recorded_rack_are_refused() -> None:
    error = replay_error(HEAD + ">ann: ABCDEFG 8G KOLO +10 10\n")
    assert error.code == "not_on_rack" and error.line == 4
    assert error.values["missing"] == "KLOO" and error.values["rack"] == "ABCDEFG"
    # an exchanged tile that was not on the rack
    error = replay_error(HEAD + ">ann: ABCDEFG -XY +0 0\n")
    assert error.code == "not_on_rack" and error.values["missing"] == "XY"


def test_a_blank_on_the_rack_covers_a_lowercase_letter_and_a_record_without_racks_is_not_checked() -> None:
    text = HEAD + ">ann: ?OLK 8G KoLO +6 6\n>bob:  H7 D.M +3 3\n"
    assert differences(read_gcg(text, "t.gcg"), tile_set("czech")) == []


CZECH_GAME = "#player1 jir Jiří Řehoř\n#player2 sar Šárka Žáková\n>jir: ŘEŠÍTKO 8G ŘEŠ +14 14\n"


@pytest.mark.parametrize("encoding", ["iso-8859-2", "cp1250"])
def test_an_old_czech_record_without_its_encoding_line_is_read_in_its_encoding(
    encoding: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = CZECH_GAME.encode(encoding)
    assert undeclared_encoding(data) == encoding
    game = read_gcg(decode_gcg(data, "old.gcg"), "old.gcg")
    assert [p.name for p in game.players] == ["Jiří Řehoř", "Šárka Žáková"]
    path = tmp_path / "old.gcg"
    path.write_bytes(data)
    run("gcg", "verify", str(path))
    err = capsys.readouterr().err
    assert encoding.upper() in err and "iconv" in err and "#character-encoding UTF-8" in err


def test_western_latin1_stays_latin1_and_our_own_files_round_trip() -> None:
    western = "#player1 jo José Müller\n#player2 an Ana\n".encode("latin-1")
    assert undeclared_encoding(western) is None
    assert "José Müller" in decode_gcg(western)
    for text in (CZECH_GAME, "#player1 jo José Müller\n#player2 an Ana\n"):
        assert read_gcg(decode_gcg(encode_gcg(text))).players == read_gcg(text).players
