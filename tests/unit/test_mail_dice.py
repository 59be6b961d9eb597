"""The dice recognisers (MARTI, the newer TripleA dice server, the ``dice:`` line), the dice
server's signature, and matching dice mails to their battles."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from application.intake.mail.matching import Battle, declared_battles, log_line, match_dice
from application.intake.mail.model import DiceRoll, DraftRecord, Source
from application.intake.mail.recognise import dicejs, generic, marti
from application.intake.mail.recognise.signature import KeyFileError, NoKey, PublicKey, signed_payload
from tests.conftest import REPLAYS
from tests.support.mail_messages import dice_mail_text, reading, segment

MARTI_BODY = ("Your dice are: 1,5,6 \nHave a nice day. \n\nVerification Info: Follow this link to check if "
              "your dice are authentic \n"
              "https://dice.tripleawarclub.org/MARTI_verify.php?iv=abc%3D&enc=xyz%2B1 \n")


# -- MARTI -----------------------------------------------------------------------------------------

def test_a_marti_mail_gives_its_dice_player_units_territory_and_round() -> None:
    found = marti.recognise(segment(MARTI_BODY, sender="MARTI <marti@triplea-game.org>",
                                    subject="Fwd: Game2231:Germans roll dice for 1 armour and 2 infantry in "
                                            "Karelia S.S.R., round 2"), reading())
    [roll] = found.dice
    assert (roll.dice, roll.power, roll.territory, roll.round) == ((1, 5, 6), "Germany", "Karelia S.S.R.", 2)
    assert roll.units == (("ARM", 1), ("INF", 2))
    assert roll.key == ("MARTI", "xyz%2B1")
    assert any("only MARTI can check it, online" in note for note in roll.notes)
    assert roll.at.isoformat() == "2019-06-01T10:00:00+02:00"


def test_a_marti_mail_not_from_marti_or_without_its_link_says_so() -> None:
    found = marti.recognise(segment("Your dice are: 3,4", subject="x:Russians roll dice for 2 infantry in "
                                    "East Europe, round 1"), reading())
    notes = found.dice[0].notes
    assert any("no MARTI verification link" in n for n in notes)
    assert any("not sent from MARTI" in n for n in notes)


def test_marti_dice_that_are_not_six_sided_are_a_problem() -> None:
    found = marti.recognise(segment("Your dice are: 3,12,1"), reading())
    assert found.dice == [] and "not 1-6" in found.problems[0].message


def test_a_marti_subject_that_does_not_read_leaves_the_battle_to_matching() -> None:
    [roll] = marti.recognise(segment(MARTI_BODY, subject="dice for my attack"), reading()).dice
    assert roll.territory is None and roll.context == "dice for my attack"


# -- the newer dice server ---------------------------------------------------------------------------

def test_a_dice_server_mail_is_read_from_its_token_time_included() -> None:
    text = dice_mail_text([1, 4], 1709575950412)
    found = dicejs.recognise(segment(text, subject="The dice have been cast!"), reading())
    [roll] = found.dice
    assert roll.dice == (1, 4) and roll.at == datetime(2024, 3, 4, 18, 12, 30, 412000, tzinfo=UTC)
    assert any("signature not checked: no --dice-key given" in n for n in roll.notes)


def test_a_dice_server_mail_whose_text_and_token_disagree_is_a_problem() -> None:
    found = dicejs.recognise(segment(dice_mail_text([1, 4], 1709575950412, results=[6, 6])), reading())
    assert found.dice == [] and "one was changed" in found.problems[0].message


def test_a_broken_token_is_a_problem() -> None:
    text = dice_mail_text([1, 4], 1709575950412).replace("token=", "token=AAAA")
    found = dicejs.recognise(segment(text), reading())
    assert found.dice == [] and "not the dice server's JSON" in found.problems[0].message
    found = dicejs.recognise(segment("The dice have been cast!\nResults: [1,4]\n"), reading())
    assert "no verification link" in found.problems[0].message


def test_an_older_token_says_how_little_its_signature_binds() -> None:
    [roll] = dicejs.recognise(segment(dice_mail_text([2], 1709575950412, legacy=True)), reading()).dice
    assert any("only the low byte of the time" in n for n in roll.notes)


def test_the_words_around_a_forwarded_dice_mail_give_its_hints() -> None:
    forwarded = replace(segment(dice_mail_text([5], 1709575950412)), context="Ukraine defence, round 1")
    [roll] = dicejs.recognise(forwarded, reading()).dice
    assert (roll.side, roll.round, roll.purpose) == ("defender", 1, "battle") and "Ukraine" in roll.context


def test_the_signed_payload_is_what_the_server_signs() -> None:
    token = {"v": 2, "dice": [1, 4], "max": 6, "times": 2, "email1": "a@x", "email2": "b@x", "date": 7,
             "signature": "s"}
    assert signed_payload(token) == (b'{"v":2,"dice":[1,4],"max":6,"times":2,"email1":"a@x",'
                                     b'"email2":"b@x","date":7}')
    assert signed_payload({"dice": [1, 4], "date": 1709575950412, "signature": "s"}) == bytes([1, 4, 0x4C])


def test_a_dice_key_that_is_no_pem_public_key_is_refused(tmp_path: Path) -> None:
    (tmp_path / "key.pem").write_text("not a key")
    with pytest.raises(KeyFileError, match="PEM public key"):
        PublicKey(tmp_path / "key.pem")
    with pytest.raises(KeyFileError, match="cannot read the file"):
        PublicKey(tmp_path / "missing.pem")


def test_without_a_key_the_signature_is_not_checked_and_says_why() -> None:
    assert NoKey().check(b"x", "sig") == (None, "signature not checked: no --dice-key given")
    key = PublicKey(REPLAYS / "mail" / "dice-server-test-key.pem")
    assert key.check(b"x", "c2ln")[0] is False  # a signature of the wrong size never holds
    assert key.check(b"x", "not base64!")[0] is False


def test_rsa_verification_is_rfc_8017_pkcs1_v1_5_with_sha512() -> None:
    """A key made here from two known primes: a signature made by the private operation
    verifies; one bit changed in the payload or the signature does not."""
    import hashlib

    from application.intake.mail.recognise.signature import _SHA512_INFO, rsa_sha512_valid

    p = 2**521 - 1  # Mersenne primes: a 1,128-bit modulus, enough for a SHA-512 block
    q = 2**607 - 1
    n, e = p * q, 65537
    d = pow(e, -1, (p - 1) * (q - 1))
    size = (n.bit_length() + 7) // 8
    digest = _SHA512_INFO + hashlib.sha512(b"dice 3 5").digest()
    block = b"\x00\x01" + b"\xff" * (size - len(digest) - 3) + b"\x00" + digest
    signature = pow(int.from_bytes(block, "big"), d, n).to_bytes(size, "big")
    assert rsa_sha512_valid((n, e), b"dice 3 5", signature)
    assert not rsa_sha512_valid((n, e), b"dice 3 6", signature)
    assert not rsa_sha512_valid((n, e), b"dice 3 5", bytes([signature[0] ^ 1]) + signature[1:])


def test_the_shipped_dice_server_mails_verify_against_the_shipped_key() -> None:
    import base64
    import json
    from urllib.parse import quote, unquote

    from application.intake.mail.decode import decode_message
    from application.intake.mail.unwrap import unwrap

    key = PublicKey(REPLAYS / "mail" / "dice-server-test-key.pem")
    data = (REPLAYS / "mail" / "game-5907" / "03-dice-ukraine-attack.eml").read_bytes()
    [seg] = unwrap(decode_message(data), "03")[0]
    [roll] = dicejs.recognise(seg, replace(reading(), signature=key)).dice
    assert any(note.endswith(": valid") for note in roll.notes)
    # The same token with one die changed (and the mail's text changed to match): refused.
    found = re.search(r"token=([^>\s]+)", seg.text)
    assert found is not None
    token = json.loads(base64.b64decode(unquote(found.group(1))))
    token["dice"] = [6, 4]
    forged = quote(base64.b64encode(json.dumps(token).encode()).decode(), safe="")
    text = seg.text.replace(found.group(1), forged).replace("Results: [1,4]", "Results: [6,4]")
    tampered = dicejs.recognise(segment(text), replace(reading(), signature=key))
    assert tampered.dice == [] and "does NOT match" in tampered.problems[0].message


# -- the dice line ---------------------------------------------------------------------------------

def test_a_dice_line_takes_its_words_or_the_line_above() -> None:
    text = "Karelia correction dice: 4\n\nUkraine R1 defence\ndice: 5, 3\n"
    found = generic.recognise(segment(text), reading())
    first, second = found.dice
    assert (first.dice, first.purpose, first.context.split()[0]) == ((4,), "correction", "Karelia")
    assert (second.dice, second.side, second.round) == ((5, 3), "defender", 1)
    assert generic.recognise(segment("dice: 7 1\nthe dice are: 1 2\n"), reading()).dice == []


# -- matching --------------------------------------------------------------------------------------

def _declaration(turn: str, text: str, at: datetime) -> DraftRecord:
    return DraftRecord("declaration", at, (("turn", turn), ("text", text)), Source(segment("x").origin, 1),
                       ("declaration", turn))


T0 = datetime(2024, 3, 4, 18, 0, tzinfo=UTC)
USSR3 = _declaration("USSR 3", "Attack #1 - E Europe (AA, 2 INF, 2 FTR, 3 ARM)\n"
                               "9 INF,1 ARM,2 FTRs from Karelia land Russia\n2 ARM from Caucasus\n"
                               "Attack #2 - Ukraine (1 INF)\n2 INF from Caucasus\n", T0)


def _roll(dice: tuple[int, ...], minutes: int = 10, **kw: object) -> DiceRoll:
    return DiceRoll(dice, T0.replace(minute=minutes), Source(segment("x").origin, 1), "dice server",
                    ("k", str(dice), str(minutes)), **kw)  # type: ignore[arg-type]


def _battles() -> list[Battle]:
    return declared_battles([USSR3])


def test_dice_counts_pick_the_only_first_round_throw_that_fits() -> None:
    battles = _battles()
    east = next(b for b in battles if b.territory == "East Europe")
    assert east.needs("aa") == {2} and east.needs("attacker") == {12, 13, 14}
    assert east.needs("defender") == {7}
    # 2 dice fit E Europe's AA gun and Ukraine's attack: ambiguous while E Europe has no log.
    matched = match_dice([_roll((1, 4))], battles)
    assert matched.records == [] and "fit several throws" in matched.problems[0].message
    battles = _battles()
    for battle in battles:
        battle.logged = battle.territory == "East Europe"
    matched = match_dice([_roll((1, 4)), _roll((5,), 11)], battles)
    assert [(r.get("battle"), r.get("log")) for r in matched.records] == [("Ukraine", "A1 14\n"),
                                                                          ("Ukraine", "D1 5\n")]


def test_a_roll_naming_its_battle_side_and_round_is_placed_by_its_words() -> None:
    roll = _roll((3, 3), context="E Europe round 2 defence", side="defender", round=2)
    matched = match_dice([roll], _battles())
    assert [(r.get("battle"), r.get("log")) for r in matched.records] == [("E Europe", "D2 33\n")]


def test_a_marti_roll_takes_its_territory_and_its_side_from_the_player() -> None:
    roll = _roll((1, 5, 2, 6), territory="East Europe", power="USSR", round=1,
                 units=(("INF", 2), ("ARM", 2)))
    defence = _roll((3, 4), 12, territory="East Europe", power="Germany", round=1, units=(("INF", 2),))
    matched = match_dice([roll, defence], _battles())
    assert [r.get("log") for r in matched.records] == ["A1(2 INF, 2 ARM) 15/26\n", "D1(2 INF) 34\n"]


def test_a_correction_roll_becomes_dice_of_its_battle() -> None:
    roll = _roll((2, 6), context="correction dice for E Europe", purpose="correction")
    matched = match_dice([roll], _battles())
    [record] = matched.records
    assert (record.kind, record.get("battle"), record.get("dice")) == ("dice", "E Europe", "26")
    unnamed = match_dice([_roll((2, 6), context="correction", purpose="correction")], _battles())
    assert "no battle of USSR 3 named" in unnamed.problems[0].message


def test_a_roll_no_battle_can_take_is_a_problem_with_the_record_it_could_be() -> None:
    early = replace(_roll((1, 2, 3)), at=T0.replace(hour=17))
    matched = match_dice([early, _roll((1, 2, 3, 4, 5))], _battles())
    assert [p.message.split(": ", 1)[1] for p in matched.problems] == [
        "no declaration before it in the e-mails", "no battle of USSR 3 still needs 5 dice in round 1"]
    suggestion = matched.problems[0].record
    assert suggestion is not None and suggestion.get("battle") == "?" and suggestion.get("log") == "A1 123\n"


def test_log_lines_put_the_dice_in_the_boards_columns() -> None:
    roll = _roll((3, 1, 1, 5, 6, 2, 5), units=(("FTR", 1), ("INF", 4), ("ARM", 2)))
    assert log_line(roll, "attacker", 1) == "A1(4 INF, 1 FTR, 2 ARM) 1156/325"
    assert log_line(roll, "defender", 2) == "D2(4 INF, 2 ARM, 1 FTR) 115625/3"
    assert log_line(_roll((1, 1)), "aa", 1) == "AA rolls 11"
    assert log_line(replace(roll, units=(("INF", 1),)), "attacker", 1) == "A1 3115625"
