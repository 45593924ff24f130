"""Texts players and referees read on the table (LCD, menu), in Czech with English as an option.

Kept short: a 16x2 LCD line holds 16 characters. Czech letters are transliterated or drawn as custom glyphs by the
LCD layer, so the texts here are written with their diacritics.
"""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # key: (Czech, English)
    "menu": ("MENU", "MENU"),
    "back": ("< zpět", "< back"),
    "done": ("hotovo", "done"),
    "pass": ("Pas", "Pass"),
    "exchange": ("Výměna", "Exchange"),
    "challenge_word": ("Námitka slovo", "Challenge word"),
    "challenge_score": ("Námitka body", "Challenge score"),
    "ruling": ("Rozhodnutí", "Ruling"),
    "upheld": ("oprávněná", "upheld"),
    "rejected": ("neoprávněná", "rejected"),
    "appeal": ("Odvolání", "Appeal"),
    "for_appellant": ("vyhověno", "granted"),
    "against": ("zamítnuto", "refused"),
    "pause": ("Rozhodčí pauza", "Referee pause"),
    "resume": ("Pokračovat", "Resume"),
    "paused": ("PAUZA", "PAUSED"),
    "blank": ("Žolík písmeno", "Blank letter"),
    "name_blank": ("Zvol žolík", "Name the blank"),
    "racks": ("Zbylé kameny", "Tiles left"),
    "new_game": ("Nová hra", "New game"),
    "check": ("Kontrola sady", "Tile-set check"),
    "lay_square": ("čtverec 10x10", "10x10 square"),
    "resumed": ("Hra obnovena", "Game resumed"),
    "move_no": ("tah {n}", "move {n}"),
    "warning": ("Zbývá 10 minut", "10 minutes left"),
    "ten_minutes": ("základního času", "of base time"),
    "board_error": ("Chyba desky", "Board error"),
    "remove_tiles": ("sundej kameny", "remove tiles"),
    "illegal": ("Neplatný tah", "Illegal move"),
    "press_button": ("stiskni tlačítko", "press button"),
    "link_down": ("Deska odpojena", "Board unplugged"),
    "clock_start": ("Spusť hodiny", "Start the clock"),
    "clock_press": ("{name}: stiskni", "{name}: press"),
    "clock_game": ("hra", "game"),
    "clock_you": ("ty", "you"),
    "link_up": ("Deska připojena", "Board connected"),
    "resign": ("Vzdát hru", "Resign"),
    "yes": ("ano", "yes"),
    "no": ("ne", "no"),
    "set_ok": ("Sada kompletní", "Set complete"),
    "set_missing": ("chybí {tiles}", "missing {tiles}"),
    "set_extra": ("navíc {tiles}", "extra {tiles}"),
    "take_back": ("Vrať kameny", "Take back tiles"),
    "put_back": ("Vrať na desku", "Put tiles back"),
    "cell_fault": ("Vadné pole {square}", "Cell fault {square}"),
    "word_known": ("ve slovníku", "in lexicon"),
    "word_unknown": ("není ve slovníku", "not in lexicon"),
    "game_over": ("Konec hry", "Game over"),
    "forfeit": ("Kontumace", "Forfeit"),
    "base_time_over": ("Konec zákl. času", "Base time over"),
    "round_abc": ("kolo {r}", "round {r}"),
    "timeout": ("Čas vypršel", "Time is up"),
    "turn_lost": ("Tah propadá", "Turn lost"),
    # the referee's flows (seed 004)
    "no_show": ("Nenastoupil", "No-show"),
    "nobody_came": ("nikdo", "nobody"),
    "no_show_q": ("Nenastoupil?", "No-show?"),
    "call_referee": ("zavolej rozhodčí", "call the referee"),
    "challenge_rack": ("Námitka kameny", "Challenge rack"),
    "challenge_sheet": ("Námitka partiář", "Challenge sheet"),
    "rack_report": ("Počet kamenů", "Rack count"),
    "warning_give": ("Napomenutí", "Warning"),
    "warned": ("Napomenutí {n}.", "Warning {n}"),
    "disqualify": ("Vyloučení", "Disqualify"),
    "announce_ok": ("Body OK {score}", "Score OK {score}"),
    "announce": ("Ohlásit body", "Announce score"),
    "announced": ("Ohlášeno {score}", "Announced {score}"),
    "table_score": ("stůl {score} ({diff:+d})", "table {score} ({diff:+d})"),
    "beyond_set": ("Nad sadu: {letters}", "Beyond set: {letters}"),
    "irregular": ("Nepravidelný tah", "Irregular play"),
    "resigned": ("Vzdává: {name}", "Resigns: {name}"),
    "finish_move": ("soupeř dohraje", "opponent ends"),
    "swap_blank": ("Vyměnit žolík", "Swap a blank"),
    "swap_on_board": ("Vyměň na desce", "Swap on board"),
    "press_again": ("znovu = zapsat", "again = record"),
    "challenge_placement": ("Námitka položení", "Challenge place"),
}


def text(key: str, language: str = "cs") -> str:
    """The text for a key in a language (``cs`` or ``en``); raises KeyError for an unknown key."""
    cs, en = TEXTS[key]
    return en if language == "en" else cs
