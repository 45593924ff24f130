"""What a scenario error says (``hw_sim.scenario``), in Czech and English: one place for the wording.

A scenario error carries a problem code and its values; ``problem(code, lang, values)`` words it. ``PROBLEMS`` is
``code: (Czech, English)``; the names of a step's numbers (``{what}``) come from ``WHAT`` and the problems of
reading a file from ``shared.texts.CLI`` (``gcg_os_*``), as the other commands say them.
"""

from __future__ import annotations

from collections.abc import Mapping

PROBLEMS: dict[str, tuple[str, str]] = {
    # reading the file
    "cannot_read": ("soubor nelze přečíst: {reason}", "cannot read the file: {reason}"),
    "not_utf8": ("soubor není v kódování UTF-8 (bajt {byte} ve sloupci {column}); uložte ho jako UTF-8",
                 "the file is not UTF-8 (byte {byte} in column {column}); save it as UTF-8"),
    "no_steps": ("scénář nemá žádný krok (je prázdný nebo jen s komentáři), nic by se neověřilo",
                 "the scenario has no step (it is empty or only comments): nothing would be checked"),
    # a line that is not a step
    "unbalanced_quotes": ("neuzavřené uvozovky", "unbalanced quotes"),
    "empty_step": ("prázdný krok", "empty step"),
    "unknown_step": ("neznámý krok {word!r} (známé: {known})", "unknown step {word!r} (known: {known})"),
    "not_number": ("{what} musí být číslo, je {text!r}", "{what} must be a number, got {text!r}"),
    "not_finite": ("{what} musí být konečné číslo, je {text!r}", "{what} must be a finite number, got {text!r}"),
    "not_whole": ("{what} musí být celé číslo, je {text!r}", "{what} must be a whole number, got {text!r}"),
    "wait_positive": ("čekání musí být kladné, je {text!r}", "the wait must be positive, got {text!r}"),
    "expected_within": ("čekám 'within SEKUND', je {text!r}", "expected 'within SECONDS', got {text!r}"),
    "expected_place": ("čekám 'place SLOVO at POZICE'", "expected 'place WORD at POSITION'"),
    "word_letters": ("slovo musí být z písmen (malé = žolík), je {word!r}",
                     "the word must be letters (lowercase = blank), got {word!r}"),
    "not_position": ("to není pozice (8H vodorovně, H8 svisle): {text!r}",
                     "not a position (8H across, H8 down): {text!r}"),
    "off_board": ("{word!r} na {where} přesahuje desku", "{word!r} at {where} runs off the board"),
    "not_square": ("to není pole (např. H8): {text!r}", "not a square (e.g. H8): {text!r}"),
    "expected_remove": ("čekám 'remove POLE' nebo 'remove PRVNÍ..POSLEDNÍ'",
                        "expected 'remove SQUARE' or 'remove FIRST..LAST'"),
    "not_line": ("{text!r} není jeden řádek ani sloupec", "{text!r} is not one row or column"),
    "expected_press": ("čekám 'press A', 'press B' nebo 'press encoder'",
                       "expected 'press A', 'press B' or 'press encoder'"),
    "unknown_button": ("neznámé tlačítko {text!r} (A, B nebo encoder)", "unknown button {text!r} (A, B or encoder)"),
    "hold_range": ("držení musí být 0-10 s, je {text!r}", "hold must be 0-10 s, got {text!r}"),
    "expected_press_hold": ("čekám 'press TLAČÍTKO' nebo 'press TLAČÍTKO hold SEKUND'",
                            "expected 'press BUTTON' or 'press BUTTON hold SECONDS'"),
    "expected_turn": ("čekám 'turn encoder +N' nebo 'turn encoder -N'",
                      "expected 'turn encoder +N' or 'turn encoder -N'"),
    "steps_range": ("kroků musí být 1-100 na jednu či druhou stranu, je {text!r}",
                    "steps must be 1-100 either way, got {text!r}"),
    "expected_advance": ("čekám 'advance SEKUND'", "expected 'advance SECONDS'"),
    "time_forward": ("čas jde jen dopředu, je {text!r}", "time only goes forward, got {text!r}"),
    "expected_wait": ('čekám wait lcd "TEXT" [within SEKUND] nebo wait daemon',
                      'expected wait lcd "TEXT" [within SECONDS] or wait daemon'),
    "wait_empty": ("text, na který se čeká, je prázdný", "the text to wait for is empty"),
    "expected_choose": ('čekám choose "POLOŽKA"', 'expected choose "LABEL"'),
    "expected_expect": ("čekám 'expect score N N' nebo 'expect final N N'",
                        "expected 'expect score N N' or 'expect final N N'"),
    "expected_flicker": ("čekám 'flicker POLE KRÁT'", "expected 'flicker SQUARE TIMES'"),
    "times_range": ("krát musí být 1-1000, je {text!r}", "times must be 1-1000, got {text!r}"),
    "expected_fault": ("čekám 'fault POLE DRUH', DRUH je jedno z: {kinds}",
                       "expected 'fault SQUARE KIND' with KIND one of {kinds}"),
    "expected_unfault": ("čekám 'unfault POLE'", "expected 'unfault SQUARE'"),
    "expected_fixed": ("čekám {step!r}", "expected {step!r}"),
    # a step that did not hold while running
    "menu_not_open": ("nabídka se stiskem enkodéru neotevřela", "the menu did not open on a push of the encoder"),
    "menu_no_push": ("nabídka nepřijala stisk na {label!r} (ukazuje {lines!r})",
                     "the menu did not take the push on {label!r} (shows {lines!r})"),
    "menu_no_turn": ("nabídka se otočením enkodéru nepohnula (ukazuje {lines!r})",
                     "the menu did not move on a turn of the encoder (shows {lines!r})"),
    "menu_no_entry": ("v nabídce není položka {label!r} ani po {turns} krocích",
                      "no menu entry {label!r} after {turns} detents"),
    "cell_holds": ("{position}: na poli {cell} je {there!r}, ne {tile!r}",
                   "{position}: cell {cell} holds {there!r}, not {tile!r}"),
    "board_unseen": ("stůl změnu na desce neviděl do {seconds:g} s",
                     "the table did not see the board change within {seconds:g} s"),
    "unplug_unseen": ("stůl odpojení desky nepoznal do {seconds:g} s",
                      "the table did not notice the unplug within {seconds:g} s"),
    "lcd_missing": ("žádný řádek displejů neobsahuje {needle!r} ani po {seconds:g} s; řádky: {rows!r}",
                    "no LCD row contains {needle!r} after {seconds:g} s; rows: {rows!r}"),
    "lcds_not_showing": ("displeje neukazují {wanted}: {rows!r}", "the LCDs do not show {wanted}: {rows!r}"),
    "daemon_silent": ("démon neodpověděl do {seconds:g} s", "the daemon did not answer within {seconds:g} s"),
    "score_differs": ("čekáno skóre {expected}, stůl ukazuje {shown}",
                      "expected scores {expected}, the table shows {shown}"),
    "final_differs": ("čekán konečný výsledek {expected}, stůl ukazuje {shown}",
                      "expected final scores {expected}, the table shows {shown}"),
    "not_played": ("tento nástroj krok {step!r} nehraje", "this tool does not play {step!r}"),
    "sim_unreachable": ("simulátor neodpovídá: {kind}: {error}", "the simulator does not answer: {kind}: {error}"),
    # what the simulated board refuses (hw_sim.sim.BoardOpError)
    "board_off": ("pole mimo desku: řádek {row}, sloupec {col}", "cell off the board: row {row}, col {col}"),
    "board_no_tile": ("sada {set} nemá kámen {letter!r} (žolík je '?')",
                      "no tile {letter!r} in the {set} set (a blank is '?')"),
    "board_taken": ("na poli {cell} už leží {there!r}", "cell {cell} already holds {there!r}"),
    "board_empty": ("pole {cell} je prázdné", "cell {cell} is empty"),
    "board_fault_kind": ("neznámá porucha {kind!r} (známé: {known})", "unknown fault {kind!r} (known: {known})"),
    "board_nothing_to_flicker": ("pole {cell} je prázdné: není čím blikat",
                                 "cell {cell} is empty: nothing to flicker"),
    "board_no_device": ("simulátor nemá desku, kterou by šlo odpojit či připojit ({action})",
                        "no board device to {action}"),
    "board_unknown_op": ("neznámá operace s deskou {op!r}", "unknown board op {op!r}"),
    # where
    "at_line": ("{source}:{line}: {problem}", "{source}:{line}: {problem}"),
    "at_text": ("{source}:{line}: {problem}: {text!r}", "{source}:{line}: {problem}: {text!r}"),
    "at_step": ("{source}:{line}: {step}: {problem}", "{source}:{line}: {step}: {problem}"),
    "in_file": ("{source}: {problem}", "{source}: {problem}"),
}

WHAT: dict[str, tuple[str, str]] = {
    "wait": ("čekání", "the wait"),
    "hold": ("držení", "the hold"),
    "time": ("čas", "the time"),
    "steps": ("počet kroků", "the steps"),
    "score": ("skóre", "a score"),
    "times": ("počet", "the times"),
}
"""The numbers of a step, named in a problem's ``{what}``."""

SIM_TEXTS: dict[str, tuple[str, str]] = {
    "failed": ("partiar sim: SELHALO {problem}", "partiar sim: FAILED {problem}"),
    "error": ("partiar sim: {problem}", "partiar sim: {problem}"),
    "passed": ("partiar sim: {source}: kroků prošlo: {count}", "partiar sim: {source}: {count} steps passed"),
    "cannot_start": ("partiar sim: nelze spustit: {why}", "partiar sim: cannot start: {why}"),
    "config_unreadable": ("nelze přečíst konfiguraci {file}: {why}", "cannot read the config {file}: {why}"),
    "config_not_toml": ("konfigurace {file} není platný TOML: {why}", "the config {file} is not valid TOML: {why}"),
    "config_section": ("klíč konfigurace {section!r} musí být [sekce]", "config key {section!r} must be a [section]"),
    "config_ruleset": ("pravidla z konfigurace nelze použít: {why}", "the config's ruleset cannot be used: {why}"),
}
"""What ``partiar sim --scenario`` prints around a scenario's problem or success."""


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "en" else pair[0]


def problem(code: str, lang: str, values: Mapping[str, object]) -> str:
    """The problem ``code`` in ``lang`` (``cs``, ``en``) with its ``values`` (``what``: a ``WHAT`` key; an OSError:
    why the file cannot be read); raises KeyError for an unknown code."""
    filled = dict(values)
    for key, value in filled.items():
        if isinstance(value, OSError):  # why a file cannot be read, as the other commands say it
            from shared.gcg_texts import os_reason

            filled[key] = os_reason(value, lang)
    if "what" in filled:
        filled["what"] = _pick(WHAT[str(filled["what"])], lang)
    return _pick(PROBLEMS[code], lang).format(**filled)


def sim_text(key: str, lang: str, **values: object) -> str:
    """A line of ``partiar sim --scenario`` (``SIM_TEXTS``) in ``lang``; raises KeyError for an unknown key."""
    return _pick(SIM_TEXTS[key], lang).format(**values)
