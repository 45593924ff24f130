"""Texts of the referee's terminal tools (``partiar duplicate``, ``partiar qualify``), in Czech with English as an
option: ``say(key, lang, **values)``."""

from __future__ import annotations

from engine.board import Notation
from engine.duplicate.slips import SlipCheck

TEXTS: dict[str, tuple[str, str]] = {
    # key: (Czech, English)
    "new_game": (
        "Nová hra: {players}. Sada {tiles}, slovník {lexicon}.",
        "New game: {players}. Set {tiles}, lexicon {lexicon}.",
    ),
    "resumed": (
        "Hra obnovena z deníku {path}: tah {move}.",
        "Game resumed from journal {path}: move {move}.",
    ),
    "rule_strict": ("Špatně spočítané body: tah neuznán.", "Wrong scores: slip refused."),
    "rule_lenient": (
        "Špatně spočítané body: připíší se správné body.",
        "Wrong scores: the right score is credited.",
    ),
    "rule_locked": (
        "Pravidlo o bodech lze změnit jen před prvním lístkem.",
        "The score rule can only change before the first slip.",
    ),
    "enter_draw": (
        "Tah {move}: zadej {count} vylosovaných kamenů (? = žolík), v zásobníku zůstává „{kept}“: ",
        "Move {move}: enter the {count} tiles drawn (? = blank), kept on the rack: '{kept}': ",
    ),
    "drawn": ("Tah {move}: vylosováno {tiles}.", "Move {move}: drawn {tiles}."),
    "refused_rack": (
        "Zásobník {rack} nesplňuje pravidlo (aspoň {need} samohlásky a {need} souhlásky, žolík platí za obojí): "
        "všechny kameny zpět do sáčku, losuje se celý zásobník znovu.",
        "Rack {rack} breaks the rule (at least {need} vowels and {need} consonants, a blank counts as both): "
        "every tile back to the bag, a whole new rack is drawn.",
    ),
    "rack": ("Tah {move}. Zásobník: {rack}", "Move {move}. Rack: {rack}"),
    "start_clock": ("Enter spustí {minutes} minuty na tah.", "Press Enter to start the {minutes} minutes."),
    "clock_running": ("Čas běží: zbývá {left}.", "Clock running: {left} left."),
    "time_up": ("\aKONEC ČASU: odevzdejte lístky.", "\aTIME IS UP: hand in the slips."),
    "slip_prompt": (
        "Lístek (HRÁČ POZICE SLOVO BODY), „konec“ = uzavřít tah, „pomoc“: ",
        "Slip (PLAYER POSITION WORD SCORE), 'close' = end the move, 'help': ",
    ),
    "help": (
        "HRÁČ POZICE SLOVO BODY: lístek (např. Eva H8V KOČKA 28; žolík malým písmenem)\n"
        "konec: uzavřít tah a položit nejlepší tah\nčas: zbývající čas\ndeska: stav desky\n"
        "přísně / mírně: pravidlo o špatně spočítaných bodech (jen před prvním lístkem)",
        "PLAYER POSITION WORD SCORE: a slip (e.g. Eva 8H CAT 10; a blank in lowercase)\n"
        "close: end the move and lay the top play\ntime: time left\nboard: the board\n"
        "strict / lenient: the rule for wrong scores (only before the first slip)",
    ),
    "bad_slip": ("Nerozumím lístku {text!r}: {why}", "Cannot read slip {text!r}: {why}"),
    "unknown_word": (
        "Slovo {words} není ve slovníku (slovník jen radí). Uznat? (a/n): ",
        "{words} not in the lexicon (the lexicon only advises). Accept? (y/n): ",
    ),
    "verdict_credited": ("{player}: uznáno, {score} bodů.", "{player}: credited, {score} points."),
    "verdict_wrong_position": (
        "{player}: NEUZNÁNO, špatné umístění ({detail}).",
        "{player}: REFUSED, wrong position ({detail}).",
    ),
    "verdict_not_on_rack": (
        "{player}: NEUZNÁNO, kameny nejsou v zásobníku ({detail}).",
        "{player}: REFUSED, tiles not on the rack ({detail}).",
    ),
    "verdict_unknown_word": (
        "{player}: NEUZNÁNO, nepřípustné slovo ({detail}).",
        "{player}: REFUSED, word not allowed ({detail}).",
    ),
    "verdict_wrong_score": (
        "{player}: NEUZNÁNO, špatně spočítané body ({detail}).",
        "{player}: REFUSED, wrong score ({detail}).",
    ),
    "replaced": ("(nahrazuje předchozí lístek hráče {player})", "(replaces {player}'s earlier slip)"),
    "top": (
        "Na desku jde: {position} {word} za {score} bodů.",
        "On the board: {position} {word} for {score} points.",
    ),
    "no_top": ("Se zásobníkem nelze položit žádné slovo.", "The rack has no legal play."),
    "move_scores": ("Tah {move}: {scores}", "Move {move}: {scores}"),
    "over": ("Konec hry: {reason}.", "Game over: {reason}."),
    "standing": (
        "{rank}. {player}: {total} bodů ({percent:.1f} % maxima)",
        "{rank}. {player}: {total} points ({percent:.1f} % of top)",
    ),
    "written": ("Výsledky: {html}, {csv}", "Results: {html}, {csv}"),
    "bad_input": ("Chyba: {error}", "Error: {error}"),
    "yes": ("a", "y"),
    # partiar qualify
    "q_move": (
        "{n:>2}. {rack:<8} {position:<5} {word:<15} {score:>4}  (celkem {total})",
        "{n:>2}. {rack:<8} {position:<5} {word:<15} {score:>4}  (total {total})",
    ),
    "q_pass": ("{n:>2}. {rack:<8} bez tahu", "{n:>2}. {rack:<8} no play"),
    "q_total": ("Celkem: {total} bodů.", "Total: {total} points."),
    "q_beam": (
        "(nejlepší nalezená posloupnost: paprsek šířky {width}, {per_move} tahů na tah)",
        "(best sequence found: beam width {width}, {per_move} plays per move)",
    ),
    "q_refused": (
        "{n:>2}. {rack:<8} {position:<5} {word:<15}    0  NEUZNÁNO: {why}",
        "{n:>2}. {rack:<8} {position:<5} {word:<15}    0  REFUSED: {why}",
    ),
    "q_percent": (
        "Program našel {best} bodů; hráč má {percent:.1f} %.",
        "The program found {best} points; the player has {percent:.1f} %.",
    ),
    "q_count": (
        "Úloha má {racks} zásobníků, odpověď {answers} tahů.",
        "The task has {racks} racks, the answer {answers} moves.",
    ),
}


REASONS: dict[str, tuple[str, str]] = {
    "notation": ("pozice nebo slovo nejde přečíst", "the position or word cannot be read"),
    "main": ("nové kameny tvoří {word} na {position}", "the new tiles make {word} at {position}"),
    "no_tiles": ("slovo nepřidává žádný kámen", "the word adds no tile"),
    "duplicate_square": ("dva kameny na jednom poli", "two tiles on one square"),
    "off_board": ("slovo přesahuje desku", "the word runs off the board"),
    "occupied": ("slovo nesouhlasí s kameny na desce", "the word does not match the tiles on the board"),
    "not_in_line": ("kameny nejsou v jedné řadě", "the tiles are not in one line"),
    "gap": ("mezera ve slově", "a gap in the word"),
    "first_not_centre": ("první tah nevede přes střed", "the first move misses the centre"),
    "first_one_tile": ("první tah jediným kamenem", "a first move of one tile"),
    "not_connected": ("slovo se nedotýká kamenů na desce", "the word does not touch the tiles on the board"),
    "blank_without_letter": ("žolík bez písmene", "a blank without a letter"),
}


def describe(check: SlipCheck, lang: str, notation: Notation) -> str:
    """Why a slip was refused, for the referee: the rule broken, the tiles missing, the unknown words or the
    right score."""
    verdict = check.verdict.value
    if verdict == "not_on_rack":
        return check.missing
    if verdict == "unknown_word":
        return ", ".join(check.unknown)
    if verdict == "wrong_score":
        return (
            f"claimed {check.slip.claimed}, right {check.score}"
            if lang == "en"
            else f"napsáno {check.slip.claimed}, správně {check.score}"
        )
    if verdict == "wrong_position" and check.reason in REASONS:
        cs, en = REASONS[check.reason]
        main = check.play.main if check.play else None
        return (en if lang == "en" else cs).format(
            word=main.notation() if main else "", position=main.position.notation(notation) if main else ""
        )
    return check.detail


def say(key: str, lang: str = "cs", **values: object) -> str:
    """The text for ``key`` in ``cs`` or ``en`` with ``values`` filled in; raises KeyError for an unknown key."""
    cs, en = TEXTS[key]
    return (en if lang == "en" else cs).format(**values)
