"""Every text a player, referee or organiser reads from the table, in Czech with English as an option: one place.

Three groups, one dictionary each, ``key: (Czech, English)``:

- ``TEXTS``: the LCD and its menu. Short: every one fits a 16x2 LCD line with room for the move time where it
  shares a row with it (``tests/test_screens_fit.py`` renders every screen at every supported size and fails on a
  cut word). Written with their diacritics: the LCD layer draws or transliterates them.
- ``PHRASES``: the longer sentences of the simulator page and the table's state for the hub (who must press
  next, the result): ``device.announce`` builds them.
- ``CLI``: what the ``partiar`` commands print for referees and organisers.

Words the score sheet uses for the game's phases and end reasons live with the sheet
(``engine.scoresheet.LABELS``); ``term`` gives them here, so each word has one home. The engine modules behind
``term``, ``gcg_expected`` and ``replay_problem`` are imported when first asked: the daemon's start (the LCD's
texts) does not load the score sheet, the GCG reader and the replay.
"""

from __future__ import annotations

LANGUAGES = ("cs", "en")

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
    "blank": ("Písmeno žolíku", "Blank letter"),
    "blank_head": ("Žolík", "Blank"),
    "name_blank": ("Jaký je žolík?", "Name the blank"),
    "racks": ("Zbylé kameny", "Tiles left"),
    "racks_head": ("Kameny", "Rack"),
    "new_game": ("Nová hra", "New game"),
    "check": ("Kontrola sady", "Tile-set check"),
    "lay_square": ("čtverec 10x10", "10x10 square"),
    "resumed_at": ("Obnoveno, tah {n}", "Resumed, move {n}"),  # device.screens.resumed_notice: fits 16 to move 999
    "warning": ("Zbývá 10 minut", "10 minutes left"),
    "ten_minutes": ("hry", "of the game"),
    "board_error": ("Chyba desky", "Board error"),
    "remove_tiles": ("sundej kameny", "remove tiles"),
    "illegal": ("Chybný tah", "Wrong move"),
    "refused": ("Nelze provést", "Not allowed"),
    "press_button": ("stiskni tlačítko", "press button"),
    "link_down": ("Deska odpojena", "Board unplugged"),
    "clock_start": ("Spusť hodiny", "Start the clock"),
    "clock_press": ("{name}: stiskni", "{name}: press"),
    "clock_game": ("hra", "game"),
    "clock_you": ("ty", "you"),
    "link_up": ("Deska připojena", "Board connected"),
    "resign": ("Vzdát hru", "Resign"),
    "resign_head": ("Vzdává", "Resign"),  # the question after the side is picked: "Vzdává Bedřich?"
    "yes": ("ano", "yes"),
    "no": ("ne", "no"),
    "set_ok": ("Sada kompletní", "Set complete"),
    "set_missing": ("chybí {tiles}", "missing {tiles}"),
    "set_extra": ("navíc {tiles}", "extra {tiles}"),
    "set_ruling": ("Sada: rozhodčí", "Set: referee"),
    "set_put_right": ("doplněna", "put right"),
    "set_as_found": ("hrát s ní", "play as found"),
    "set_wait": ("Sada neúplná", "Set incomplete"),
    # the chief referee's word on the clock (device/table_round.py; 004)
    "round_start": ("Start kola", "Start round"),
    "round_end": ("Konec času", "End base time"),
    "round_wait": ("Čeká na start", "Awaiting start"),
    "round_wait_2": ("kola: rozhodčí", "by the referee"),
    "base_wait": ("Čas stolu 0:00", "Table time 0:00"),
    "base_wait_2": ("konec: HR", "CR ends it"),  # short: a running move time goes beside it on 16x2
    "base_wait_short": ("0:00 HR?", "0:00 CR?"),
    # the link to the tournament hub's broker (device/publish, tablelink/broker.py): the LCD, then the log
    "hub_up": ("Hub připojen", "Hub connected"),
    "hub_down": ("Hub nedostupný", "Hub unreachable"),
    "hub_refused": ("broker odmítá", "broker refuses"),
    "hub_tls": ("TLS: certifikát", "TLS certificate"),
    "hub_auth": ("špatné heslo", "wrong password"),
    "hub_name": ("neznámé jméno", "unknown host"),
    "hub_unreachable": ("síť nedostupná", "no network"),
    "hub_lost": ("spojení ztraceno", "connection lost"),
    "take_back": ("Vrať kameny", "Take back"),
    "put_back": ("Polož zpět", "Put back"),
    "cell_fault": ("Vadné pole {square}", "Cell fault {square}"),
    "fault_open": ("nekontakt", "no contact"),
    "fault_short": ("zkrat", "short"),
    "fault_band": ("nečitelné", "unreadable"),
    "word_known": ("ve slovníku", "in lexicon"),
    "word_unknown": ("není ve slovníku", "not in lexicon"),
    "game_over": ("Konec hry", "Game over"),
    "closing_challenged": ("Námitka: konec?", "End challenged"),
    "final": ("Konec {score}", "Final {score}"),
    "winner": ("Vítěz: {name}", "Winner: {name}"),
    "draw": ("Remíza", "Draw"),
    "void_result": ("Bez vítěze", "No winner"),
    "played": ("Hráno {score}", "Played {score}"),
    "rack_points": ("Kameny {score}", "Tiles {score}"),
    "racks_of": ("Kameny: {name}", "Tiles: {name}"),
    "forfeit": ("Kontumace", "Forfeit"),
    "base_time_over": ("Konec času hry", "Base time over"),
    "round_abc": ("kolo {r}", "round {r}"),
    "timeout": ("Čas vypršel", "Time is up"),
    "turn_lost": ("Tah propadá", "Turn lost"),
    # the last move's row (20x4) for a turn that is not a standing play
    "blank_swapped": ("Výměna žolíku", "Blank swapped"),
    "struck": ("Škrtnuto", "Struck"),
    "taken_back": ("vzato zpět", "taken back"),
    # the referee's flows (seed 004)
    "no_show": ("Nenastoupil", "No-show"),
    "nobody_came": ("nikdo", "nobody"),
    "no_show_q": ("Nepřišel?", "No-show?"),
    "call_referee": ("volej rozhodčího", "call the referee"),
    "journal_failed": ("Nezapsáno!", "Not saved!"),
    # the card and the journal at start (device/journal_referee.py, docs/daemon.md)
    "card_full": ("Karta plná!", "Card full!"),
    "card_error": ("Chyba karty", "Card error"),
    "bad_record": ("Vadný záznam", "Bad record"),
    "bad_record_unreadable": ("řádek {n}", "line {n}"),
    "bad_record_line": ("{what} ř.{n}", "{what} l.{n}"),
    "bad_record_lines": ("ř.{n} +{more}", "l.{n} +{more}"),
    "bad_record_ok": ("Vadný záznam OK", "Bad record OK"),
    "record_play": ("tah", "play"),
    "record_pass": ("pas", "pass"),
    "record_exchange": ("vým.", "exch"),
    "record_challenge": ("nám.", "chal"),
    "record_ruling": ("rozh", "rule"),
    "record_other": ("jiný", "rec."),
    "journal_differs": ("Jiná hra!", "Other game!"),
    "journal_game_q": ("Hra z deníku?", "Journal's game?"),
    "journal_continue": ("pokračovat", "continue"),
    "journal_new_game": ("nová (archiv)", "new (archive)"),
    "challenge_rack": ("Námitka kameny", "Challenge rack"),
    "challenge_sheet": ("Námitka zápisu", "Sheet claim"),
    "rack_report": ("Počet kamenů", "Rack count"),
    "warning_give": ("Napomenutí", "Warning"),
    "warned": ("Napomenutí {n}.", "Warning {n}"),
    "disqualify": ("Vyloučení", "Disqualify"),
    "exclusion_due": ("Vyloučení (HR)", "Disqualify (CR)"),
    "correction": ("Oprava {name}", "Fix {name}"),
    "corrected": ("Oprava: {name}", "Fixed: {name}"),
    "corrected_score": ("{score} ({diff:+d})", "{score} ({diff:+d})"),
    "correction_bad": ("Oprava: číslo?", "Fix: a number?"),
    "dispute_forfeit": ("Kontumace", "Forfeit"),
    "forfeit_winner": ("Vítěz", "Winner"),
    "forfeit_void": ("nikdo", "nobody"),
    "forfeit_zero": ("Kontumace 0:0", "Forfeit 0:0"),
    "forfeit_no_points": ("bez bodů", "void"),
    "forfeit_draw": ("remíza", "draw"),
    "announce_ok": ("Body OK {score}", "Score OK {score}"),
    "announce": ("Ohlásit body", "Announce score"),
    "announce_head": ("Body", "Score"),
    "announced": ("Hlásí {score}", "Called {score}"),
    "table_score": ("stůl {score} ({diff:+d})", "table {score} ({diff:+d})"),
    "beyond_set": ("Nad sadu {letters}", "Extra: {letters}"),
    "irregular": ("Nepravidelný tah", "Irregular play"),
    "resigned": ("{name} vzdává", "{name} resigns"),
    "finish_move": ("dohraj tah", "finish move"),
    "finish_double": ("dohrajte dvojtah", "finish double"),
    "finish_after": ("dohraje {name}", "{name} finishes"),  # after the resigning side's own time-out: no time runs
    "swap_blank": ("Vyměnit žolík", "Swap a blank"),
    "swap_on_board": ("Vyměň na desce", "Swap on board"),
    "press_again": ("znovu=zápis", "again: keep"),
    "challenge_placement": ("Námitka položení", "Challenge place"),
    "challenge_exchange": ("Námitka výměna", "Challenge exch."),
    "exchange_announced": ("Výměna {n}", "Exchange {n}"),
    "exchange_cancel": ("Zrušit výměnu", "Cancel exchange"),
    "exchange_board": ("sundej kameny", "lift the tiles"),
    "double_press": ("Dvojí stisk", "Double press"),
    "not_counted": ("nepočítá se", "not counted"),
    # placement reasons (engine.placement.Reason names), shown under "Neplatný tah"
    "reason_no_tiles": ("žádný kámen", "no tiles"),
    "reason_duplicate_square": ("2 kameny na poli", "2 tiles, 1 cell"),
    "reason_off_board": ("mimo desku", "off the board"),
    "reason_occupied": ("pole je obsazené", "cell taken"),
    "reason_not_in_line": ("není v řadě", "not in one line"),
    "reason_gap": ("mezera v řadě", "gap in the line"),
    "reason_first_not_centre": ("ne přes střed", "misses centre"),
    "reason_first_one_tile": ("jen 1 kámen", "only 1 tile"),
    "reason_not_connected": ("nenavazuje", "not connected"),
    "reason_blank_without_letter": ("žolík bez jména", "blank unnamed"),
    # who starts (device/table_start.py; seeds 004, 001, 002)
    "starter": ("Začíná", "Starts"),
    "start_draw": ("Los: {name}", "Draw: {name}"),
    "starts": ("Začíná {name}", "{name} starts"),
    "round_table": ("Kolo {r} stůl {t}", "Round {r} table {t}"),
    "drew": ("los {letters}", "drew {letters}"),
    "draw_tie": ("Shoda: los znovu", "Tie: draw again"),
    "draw_blank_again": ("Žolík: los znovu", "Blank: redraw"),
    "draw_none_left": ("{letter} v sáčku není", "No {letter} in bag"),
    # doubles (seed 003)
    "plays_first": ("Hraje první", "Plays first"),
    "pairing_of_pairs": ("Los pro dvojice!", "Pairs' pairing!"),  # device/table_pairs.py: a doubles pairing here
    "pairing_of_two": ("Los pro 2 hráče!", "Pairing for two!"),  # a singles pairing at a doubles table
    "round_starts": ("Kolo {r}: začíná", "Round {r}: starts"),  # a pairs pairing: the starting team below
    "team_tag": ("D{n}", "T{n}"),
}

PHRASES: dict[str, tuple[str, str]] = {
    # the link to the tournament hub's broker, for the table's log (tablelink/broker.py PROBLEMS)
    "hub_log_up": ("připojeno k brokeru hubu {url}", "connected to the hub's broker {url}"),
    "hub_log_down": ("nelze se připojit k brokeru hubu {url}: {why} ({detail}); stolek hraje dál a události "
                     "posílá, až se spojí", "cannot connect to the hub's broker {url}: {why} ({detail}); the table "
                     "plays on and sends its events once connected"),
    "hub_why_refused": ("broker spojení odmítá: běží, a je adresa i port správně (mqtts://…:8883)?",
                        "the broker refuses the connection: is it running, are the address and port right "
                        "(mqtts://…:8883)?"),
    "hub_why_tls": ("certifikát brokeru neodpovídá [hub] ca_file, nebo v něm není jméno hubu z adresy brokeru",
                    "the broker's certificate does not match [hub] ca_file, or the hub's name in the broker URL is "
                    "not in it"),
    "hub_why_auth": ("broker nepřijal jméno nebo heslo stolku ([hub] table_id, username, password)",
                     "the broker refused the table's user name or password ([hub] table_id, username, password)"),
    "hub_why_name": ("jméno hubu z adresy brokeru nelze přeložit (síť, mDNS .local)",
                     "the hub's name in the broker URL does not resolve (network, mDNS .local)"),
    "hub_why_unreachable": ("hub není v síti dosažitelný", "the hub cannot be reached on the network"),
    "hub_why_lost": ("spojení s brokerem se přerušilo", "the connection to the broker dropped"),
    "next_start": ("Hodiny spustí stiskem: {name}", "{name} starts the clock with a press"),
    "next_on_move": ("Na tahu: {name} (po tahu stiskne)", "On move: {name} (presses after the move)"),
    "next_timeout": ("Čas vypršel, stiskne: {name}", "Time is up; {name} must press"),
    "next_paused": ("Hodiny stojí (pauza): pokračovat z nabídky", "The clock is paused: resume from the menu"),
    "next_take_back": ("Vraťte kameny z desky: čas hráče {name} poběží, až bude deska čistá",
                       "Take the tiles off the board: {name}'s time runs once it is clear"),
    "next_blank": ("{name}: zvol písmeno žolíku v nabídce", "{name}: name the blank on the menu"),
    "next_racks": ("Konec hry: zapište zbylé kameny hráče {name} (nabídka)",
                   "Game over: enter the tiles left of {name} (menu)"),
    "next_closing_challenged": ("Námitka proti tahu, který zavřel hru: rozhoduje rozhodčí (nabídka)",
                                "The play that closed the game is challenged: the referee rules (menu)"),
    "next_round_wait": ("Čeká se na start kola: vyhlásí rozhodčí", "Waiting for the round to start: the referee announces it"),
    "next_ended": ("Konec hry: nikdo nemačká; nová hra z nabídky", "Game over: nobody presses; new game from the menu"),
    "result": ("Výsledek", "Result"),
    "winner": ("Vítěz: {name}", "Winner: {name}"),
    "draw": ("Remíza", "Draw"),
    "void": ("Bez vítěze, body za remízu nezískává nikdo", "No winner, no points for a draw"),
    "ended_by": ("Konec hry: {reason}", "Game over: {reason}"),
    "played": ("Body zahrané", "Points played"),
    "rack_adjust": ("Zbylé kameny", "Tiles left"),
    "final": ("Celkem", "Total"),
    "phase": ("Fáze", "Phase"),
    "last_move": ("Poslední tah", "Last move"),
    "phase_setup": ("příprava", "setup"),
    "phase_normal": ("hra", "play"),
    "phase_A": ("dohrávka, kolo A", "playout, round A"),
    "phase_B": ("dohrávka, kolo B", "playout, round B"),
    "phase_C": ("dohrávka, kolo C", "playout, round C"),
    "phase_ended": ("konec", "ended"),
    "ruleset_cas": ("ČAS", "ČAS"),
    "ruleset_home": ("domácí", "home"),
    "ruleset_english": ("anglická", "English"),
    "ruleset_prague": ("pražská čtyřhra", "Prague doubles"),
    "ruleset_polish": ("polská čtyřhra", "Polish doubles"),
}

CLI: dict[str, tuple[str, str]] = {
    # partiar hub brokerconf (hub/brokerconf.py)
    "brokerconf_tables": ("--tables {n}: počet stolů musí být 1-999", "--tables {n}: the number of tables must be 1-999"),
    "brokerconf_failed": ("brokerconf: {error}", "brokerconf: {error}"),
    "brokerconf_wrote": (
        "Broker turnaje je připraven v {dir}: {conf}, acl, passwd, credentials.csv (hesla: držte v tajnosti), "
        "certifikát brokeru server.crt/server.key a certifikační autorita turnaje {ca}.\n"
        "Stoly ({n}): každý dostane ca.crt a svůj oddíl [hub] z {dir}/tables/N.toml; připojují se na {url} (TLS).\n"
        "Hub na tomto počítači: --broker mqtt://127.0.0.1:{port} (jen odsud).",
        "The tournament's broker is ready in {dir}: {conf}, acl, passwd, credentials.csv (passwords: keep it "
        "secret), the broker's certificate server.crt/server.key and the tournament's certificate authority {ca}.\n"
        "Tables ({n}): each gets ca.crt and its [hub] section from {dir}/tables/N.toml; they connect to {url} "
        "(TLS).\nThe hub on this machine: --broker mqtt://127.0.0.1:{port} (from here only).",
    ),
    "brokerconf_hub_password": ("Heslo hubu k brokeru: {file} (partiar hub --broker-password-file {file})",
                                "The hub's broker password: {file} (partiar hub --broker-password-file {file})"),
    "lexicon_status": ("{word}\t{status}", "{word}\t{status}"),
    "lexicon_read": ("zdroj: {read:slovo|slova|slov}, ponecháno: {kept:slovo|slova|slov}",
                     "source: {read:word|words}, kept: {kept:word|words}"),
    "lexicon_dropped": ("  vyřazeno {count:>8} {rule:<17} např. {examples}",
                        "  dropped {count:>8} {rule:<13} e.g. {examples}"),
    "lexicon_rule_capitalised": ("velké písmeno", "capitalised"),
    "lexicon_rule_letters": ("cizí znak", "letters"),
    "lexicon_rule_length": ("délka", "length"),
    "lexicon_rule_tripled": ("3× stejné písmeno", "tripled"),
    "lexicon_rule_abbreviation": ("zkratka", "abbreviation"),
    "lexicon_rule_vowelless": ("bez samohlásky", "vowelless"),
    "lexicon_rule_broken_ll": ("chybné -ll", "broken_ll"),
    "lexicon_lists": ("seznamy ČAS a pořadatele: přidáno: {added:slovo|slova|slov}, odebráno: {removed:slovo|slova|slov}",
                      "ČAS lists and organiser lists: added {added:word|words}, removed {removed:word|words}"),
    "lexicon_wrote": ("zapsáno {path}: {words:slovo|slova|slov}, {nodes:uzel|uzly|uzlů}, {size:bajt|bajty|bajtů} za {seconds:.1f} s",
                      "wrote {path}: {words:word|words}, {nodes:node|nodes}, {size:byte|bytes} in {seconds:.1f} s"),
    "lexicon_stage_source": ("čtu slova z aspell-cs", "reading the words of aspell-cs"),
    "lexicon_stage_list": ("čtu seznam slov", "reading the word list"),
    "lexicon_stage_build": ("stavím index", "building the index"),
    "lexicon_words": ("slov", "words"),
    "sim_lexicon_missing": (
        "partiar sim: slovník pro námitky chybí ({path}); stavím ho z aspell-cs (jednou, asi {estimate}; "
        "průběh níže, hra se spustí potom)",
        "partiar sim: no lexicon for challenges ({path}); building it from aspell-cs (once, about {estimate}; "
        "progress below, the game starts after it)",
    ),
    "sim_lexicon_unusable": (
        "partiar sim: slovník pro námitky nelze načíst ({error}); odkládám ho jako {aside} a stavím nový z aspell-cs "
        "(jednou, asi {estimate}; průběh níže, hra se spustí potom)",
        "partiar sim: the lexicon for challenges cannot be read ({error}); moving it aside to {aside} and building a "
        "new one from aspell-cs (once, about {estimate}; progress below, the game starts after)",
    ),
    "sim_lexicon_built": ("partiar sim: slovník hotov za {seconds:.0f} s", "partiar sim: lexicon built in {seconds:.0f} s"),
    "sim_lexicon_failed": (
        "partiar sim: slovník nelze postavit ({error}); námitky poběží bez něj (partiar lexicon build)",
        "partiar sim: cannot build the lexicon ({error}); challenges go without it (partiar lexicon build)",
    ),
    # partiar duplicate and partiar qualify (desk/referee_texts.py says them)
    "ref_new_game": (
        "Nová hra: {players}. Sada {tiles}, slovník {lexicon}.",
        "New game: {players}. Set {tiles}, lexicon {lexicon}.",
    ),
    "ref_resumed": (
        "Hra obnovena z deníku {path}: tah {move}.",
        "Game resumed from journal {path}: move {move}.",
    ),
    "ref_resume_conflict": (
        "složka {folder} už má hru ({players}) a ta pokračuje se svým nastavením; {options} se nemění. Pokračovat: "
        "partiar duplicate {folder} (bez těchto voleb); nová hra: jiná složka.",
        "folder {folder} holds a game ({players}) that continues with its own settings; {options} cannot change. "
        "To continue: partiar duplicate {folder} (without these options); a new game: another folder.",
    ),
    "ref_folder_busy": (
        "složka {folder} už má spuštěný jiný program partiar duplicate ({holder}); dva programy by hru poškodily. "
        "Pracujte v tom, který běží; po jeho ukončení hru obnoví partiar duplicate {folder}.",
        "folder {folder} already has another partiar duplicate running ({holder}); two programs would damage the "
        "game. Work in the one that runs; once it ends, partiar duplicate {folder} resumes the game.",
    ),
    "ref_need_players": ("nová hra potřebuje --players \"Jméno,Jméno,...\"", "a new game needs --players \"Name,Name,...\""),
    "ref_players_distinct": (
        "hráči {players}: každý potřebuje jiné jméno (velikost písmen nerozlišuje)",
        "players {players}: each needs another name (letter case does not count)",
    ),
    "ref_bad_minutes": ("--minutes musí být kladné, ne {minutes}", "--minutes must be positive, not {minutes}"),
    "ref_rule_strict": ("Špatně spočítané body: tah neuznán.", "Wrong scores: slip refused."),
    "ref_rule_lenient": (
        "Špatně spočítané body: připíší se správné body.",
        "Wrong scores: the right score is credited.",
    ),
    "ref_rule_undecided": (
        "Špatně spočítané body: rozhodnete u prvního lístku, který je má (přísně = tah neuznán, mírně = "
        "připsat správné body).",
        "Wrong scores: you decide at the first slip that has one (strict = slip refused, lenient = credit the right "
        "score).",
    ),
    "ref_rule_locked": (
        "Pravidlo o bodech už rozhodlo o špatně spočítaném lístku: nelze ho změnit.",
        "The score rule has already judged a slip with a wrong score: it cannot change.",
    ),
    "ref_ask_rule": (
        "{player} uvádí {claimed:bod|body|bodů}, tah má {score}. Pravidlo pro celou hru: vyřadit tah (přísně), nebo připsat "
        "správné body (mírně)? ",
        "{player} claims {claimed:point|points}, the play scores {score}. The rule for the whole game: refuse the slip "
        "(strict) or credit the right score (lenient)? ",
    ),
    "ref_enter_draw": (
        "Tah {move}: zadejte vylosované kameny, počet {count} (? = žolík), v zásobníku zůstává „{kept}“: ",
        "Move {move}: enter the {count} tiles drawn (? = blank), kept on the rack: '{kept}': ",
    ),
    "ref_drawn": ("Tah {move}: vylosováno {tiles}.", "Move {move}: drawn {tiles}."),
    "ref_refused_rack": (
        "Zásobník {rack} nesplňuje pravidlo (aspoň {need:samohlásku|samohlásky|samohlásek} a {need:souhlásku|souhlásky|souhlásek}, žolík platí za obojí): "
        "všechny kameny zpět do sáčku, losuje se celý zásobník znovu.",
        "Rack {rack} breaks the rule (at least {need:vowel|vowels} and {need:consonant|consonants}, a blank counts as "
        "both): "
        "every tile back to the bag, a whole new rack is drawn.",
    ),
    "ref_rack": ("Tah {move}. Zásobník: {rack}", "Move {move}. Rack: {rack}"),
    "ref_start_clock": ("Enter spustí čas na tah ({minutes} min).", "Press Enter to start the move's {minutes} min."),
    "ref_clock_running": ("Čas běží: zbývá {left}.", "Clock running: {left} left."),
    "ref_time_up": ("\aKONEC ČASU: odevzdejte lístky.", "\aTIME IS UP: hand in the slips."),
    "ref_slip_prompt": (
        "Lístek (HRÁČ POZICE SLOVO BODY), „konec“ = uzavřít tah, „pomoc“: ",
        "Slip (PLAYER POSITION WORD SCORE), 'close' = end the move, 'help': ",
    ),
    "ref_help": (
        "HRÁČ POZICE SLOVO BODY: lístek (např. Eva H8V KOČKA 28 nebo Eva 8H KOČKA 28; svisle H8S nebo H8; "
        "žolík malým písmenem)\n"
        "smazat HRÁČ: škrtnout lístek hráče (zadaný omylem)\nlístky: zadané lístky tohoto tahu\n"
        "tah N HRÁČ POZICE SLOVO BODY: lístek k už uzavřenému tahu N (posoudí se na desce toho tahu)\n"
        "konec: uzavřít tah a položit nejlepší tah\nčas: zbývající čas\ndeska: stav desky\n"
        "přísně / mírně: pravidlo o špatně spočítaných bodech (nejpozději u prvního lístku, který je má)",
        "PLAYER POSITION WORD SCORE: a slip (e.g. Eva 8H CAT 10; a blank in lowercase)\n"
        "delete PLAYER: strike out the player's slip (entered by mistake)\nslips: the slips entered for this move\n"
        "move N PLAYER POSITION WORD SCORE: a slip for move N, already closed (judged on that move's board)\n"
        "close: end the move and lay the top play\ntime: time left\nboard: the board\n"
        "strict / lenient: the rule for wrong scores (at the latest at the first slip that has one)",
    ),
    "ref_bad_slip": ("Nerozumím lístku {text!r}: {why}", "Cannot read slip {text!r}: {why}"),
    "ref_slip_fields": (
        "čekám 4 údaje HRÁČ POZICE SLOVO BODY (jméno s mezerou v uvozovkách)",
        "expected 4 fields PLAYER POSITION WORD SCORE (a name with a space in quotes)",
    ),
    "ref_slip_player": ("hráč {player!r} nehraje (hráči: {players})", "no player {player!r} (players: {players})"),
    "ref_slip_score": ("body {score!r} nejsou číslo", "score {score!r} is not a number"),
    "ref_unknown_word": (
        "Slovo {words} není ve slovníku (slovník jen radí). Uznat? (a = ano / n = ne): ",
        "{words} not in the lexicon (the lexicon only advises). Accept? (y = yes / n = no): ",
    ),
    "ref_verdict_credited": ("{player}: uznáno, {score:bod|body|bodů}.", "{player}: credited, {score:point|points}."),
    "ref_verdict_credited_corrected": (
        "{player}: uznáno se správnými body, {score:bod|body|bodů} (na lístku {claimed}: špatně spočítáno).",
        "{player}: credited with the right score, {score:point|points} (the slip says {claimed}: miscounted).",
    ),
    "ref_late_slip_which": (
        "Lístek po konci tahu {closed}: ke kterému tahu patří? {closed} = uzavřený tah {closed} (posoudí se na jeho "
        "desce), {open} = nový tah {open} (spustí jeho čas): ",
        "A slip after move {closed} closed: which move is it for? {closed} = the closed move {closed} (judged on its "
        "board), {open} = the new move {open} (starts its clock): ",
    ),
    "ref_booked_late": (
        "Zapsáno k uzavřenému tahu {move}; výsledky přepsány.",
        "Booked to the closed move {move}; the results rewritten.",
    ),
    "ref_bad_move_number": (
        "Tah {move!r} nelze: lístek jde zapsat k uzavřenému tahu 1-{closed} nebo k otevřenému tahu {open}.",
        "No move {move!r}: a slip can be booked to a closed move 1-{closed} or to the open move {open}.",
    ),
    "ref_verdict_wrong_position": (
        "{player}: NEUZNÁNO, špatné umístění ({detail}).",
        "{player}: REFUSED, wrong position ({detail}).",
    ),
    "ref_verdict_not_on_rack": (
        "{player}: NEUZNÁNO, kameny nejsou v zásobníku ({detail}).",
        "{player}: REFUSED, tiles not on the rack ({detail}).",
    ),
    "ref_verdict_unknown_word": (
        "{player}: NEUZNÁNO, nepřípustné slovo ({detail}).",
        "{player}: REFUSED, word not allowed ({detail}).",
    ),
    "ref_verdict_wrong_score": (
        "{player}: NEUZNÁNO, špatně spočítané body ({detail}).",
        "{player}: REFUSED, wrong score ({detail}).",
    ),
    "ref_slips_head": (
        "Tah {move} (zásobník {rack}): zadáno {count} z {players} lístků.",
        "Move {move} (rack {rack}): {count} of {players} slips entered.",
    ),
    "ref_slips_line": ("  {player}: {position} {word} {claimed}: {verdict}", "  {player}: {position} {word} {claimed}: {verdict}"),
    "ref_slips_credited": ("uznáno, {score:bod|body|bodů}", "credited, {score:point|points}"),
    "ref_slips_wrong_position": ("neuznáno, špatné umístění", "refused, wrong position"),
    "ref_slips_not_on_rack": ("neuznáno, kameny nejsou v zásobníku", "refused, tiles not on the rack"),
    "ref_slips_unknown_word": ("neuznáno, nepřípustné slovo", "refused, word not allowed"),
    "ref_slips_wrong_score": ("neuznáno, špatně spočítané body", "refused, wrong score"),
    "ref_slips_no_slip": ("bez lístku", "no slip"),
    "ref_slips_withdrawn": ("lístek škrtnut", "slip struck out"),
    "ref_slips_missing": ("  Lístek chybí: {players}", "  No slip yet: {players}"),
    "ref_slips_none": (
        "Žádný tah není otevřený (další je tah {move}): lístky uzavřených tahů jsou ve výsledcích.",
        "No move is open (the next is move {move}): the slips of closed moves are in the results.",
    ),
    "ref_slips_no_game": ("složka {folder} nemá hru (journal.jsonl)", "folder {folder} holds no game (journal.jsonl)"),
    "ref_withdrawn": ("Lístek hráče {player} škrtnut.", "{player}'s slip struck out."),
    "ref_no_slip_to_withdraw": ("{player} v tomto tahu žádný lístek nemá.", "{player} has no slip in this move."),
    "ref_bad_withdraw": (
        "Nerozumím {text!r}: smazat HRÁČ (hráči: {players})",
        "Cannot read {text!r}: delete PLAYER (players: {players})",
    ),
    "ref_replaced": ("(nahrazuje předchozí lístek hráče {player})", "(replaces {player}'s earlier slip)"),
    "ref_top": (
        "Na desku jde: {position} {word} za {score:bod|body|bodů}.",
        "On the board: {position} {word} for {score:point|points}.",
    ),
    "ref_no_top": ("Se zásobníkem nelze položit žádné slovo.", "The rack has no legal play."),
    "ref_ask_no_play": (
        "Pravidla to neřeší, rozhoduje rozhodčí: ukončit hru (konec), nebo vrátit celý zásobník do sáčku a losovat "
        "znovu (losovat)? ",
        "The rules do not say; the referee decides: end the game (end) or return the whole rack to the bag and "
        "draw again (redraw)? ",
    ),
    "ref_no_play_redraw": (
        "Zásobník vrácen do sáčku, tah {move} se losuje znovu.",
        "The rack is back in the bag; move {move} is drawn again.",
    ),
    "ref_move_scores": ("Tah {move}: {scores}", "Move {move}: {scores}"),
    "ref_over": ("Konec hry: {reason}.", "Game over: {reason}."),
    "ref_standing": (
        "{rank}. {player}: {total:bod|body|bodů} ({percent} % maxima)",
        "{rank}. {player}: {total:point|points} ({percent} % of top)",
    ),
    "ref_foreign_letters": (
        "pozor: slovník má písmena, pro která sada {tiles} nemá kámen ({letters}), zahrát je jde jen žolíkem; "
        "není to slovník pro jinou sadu? (--tiles, --lexicon)",
        "warning: the lexicon has letters the {tiles} tile set has no tile for ({letters}), playable only as a "
        "blank; is it a lexicon for another set? (--tiles, --lexicon)",
    ),
    "ref_written": ("Výsledky: {html}, {csv}", "Results: {html}, {csv}"),
    "ref_bad_input": ("Chyba: {error}", "Error: {error}"),
    # partiar duplicate --show: the room's page (desk/show.py)
    "ref_show_title": ("Opisovaný Scrabble", "Duplicate Scrabble"),
    "ref_show_switch": ("English", "Česky"),
    "ref_show_rack": ("Tah {move}: {rack}", "Move {move}: {rack}"),
    "ref_show_drawing": ("Tah {move}: losuje se", "Move {move}: drawing the rack"),
    "ref_show_no_move_yet": ("Zatím žádný tah", "No move yet"),
    "ref_show_last_top": (
        "Nejlepší tah {move}: {position} {word}, {score:bod|body|bodů}",
        "Top play {move}: {position} {word}, {score:point|points}",
    ),
    "ref_show_last_no_top": ("Tah {move}: se zásobníkem nelze táhnout", "Move {move}: the rack has no play"),
    "ref_show_url": ("Stránka pro sál: {url}", "The room's page: {url}"),
    "ref_master_down": ("Hlavní deska ({url}) není připojena.", "The master board ({url}) is not connected."),
    "ref_master_differs": ("Hlavní deska nesouhlasí s hrou: {cells}.", "The master board does not match the game: {cells}."),
    "ref_master_missing": ("{square} chybí {should}", "{square}: {should} missing"),
    "ref_master_extra": ("{square} navíc {reads}", "{square}: {reads} is not in the game"),
    "ref_master_wrong": ("{square} je {reads}, má být {should}", "{square} reads {reads}, should be {should}"),
    "ref_master_retry": (
        "Opravte desku a stiskněte Enter (dál = pokračovat bez kontroly): ",
        "Put the board right and press Enter (skip = go on without the check): ",
    ),
    "ref_master_ok": ("Hlavní deska souhlasí s hrou.", "The master board matches the game."),
    # partiar qualify
    "ref_q_move": (
        "{n:>2}. {rack:<8} {position:<5} {word:<15} {score:>4}  (celkem {total})",
        "{n:>2}. {rack:<8} {position:<5} {word:<15} {score:>4}  (total {total})",
    ),
    "ref_q_pass": ("{n:>2}. {rack:<8} bez tahu", "{n:>2}. {rack:<8} no play"),
    "ref_q_total": ("Celkem: {total:bod|body|bodů}.", "Total: {total:point|points}."),
    "ref_q_proven": (
        "Optimum prokázáno: úplné prohledání, lepší posloupnost neexistuje.",
        "Optimum proven: exhaustive search, no better sequence exists.",
    ),
    "ref_q_not_proven": (
        "Optimum NEPROKÁZÁNO: nejlepší posloupnost, kterou našel paprsek {width} x {per_move} (úplné prohledání "
        "se nevešlo do --prove-limit); hráč může mít víc.",
        "Optimum NOT PROVEN: the best sequence a {width} x {per_move} beam found (the exhaustive search did not fit "
        "in --prove-limit); a player may score more.",
    ),
    "ref_q_key_comment": ("klíč: {total:bod|body|bodů}; {proof}", "key: {total:point|points}; {proof}"),
    "ref_q_above_key": (
        "POZOR, ROZHODČÍ: hráč má {total:bod|body|bodů}, víc než klíč ({before}); zkontrolujte jeho tahy. Klíčem "
        "je teď odpověď hráče.",
        "REFEREE, NOTE: the player has {total:point|points}, more than the key ({before}); check the moves. The "
        "player's answer is now the key.",
    ),
    "ref_q_above_solution": (
        "POZOR, ROZHODČÍ: hráč má {total:bod|body|bodů}, víc než program našel ({before}); zkontrolujte jeho tahy. "
        "Bez --key se klíč NEUKLÁDÁ: další kontrola bez --key hledá znovu a najde zase {before}. Aby odpověď hráče "
        "platila jako klíč pro další hráče, kontrolujte s --key {task}.klic (ten vznikne takto: partiar qualify "
        "solve {task} -o {task}.klic, nebo zkopírujte tuto odpověď, {answer}).",
        "REFEREE, NOTE: the player has {total:point|points}, more than the program found ({before}); check the "
        "moves. Without --key no key is KEPT: the next check without --key searches again and finds {before} "
        "again. For this answer to be the key for the next players, check with --key {task}.key (made by partiar "
        "qualify solve {task} -o {task}.key, or copy this answer, {answer}).",
    ),
    "ref_q_key_replaced": (
        "klíč: {total:bod|body|bodů} z odpovědi {answer} (víc než dosavadní klíč, {before}); dosavadní klíč níže",
        "key: {total:point|points} from the answer {answer} (more than the key before, {before}); that key below",
    ),
    "ref_q_key_written": ("Klíč přepsán: {path}", "Key rewritten: {path}"),
    "ref_q_refused": (
        "{n:>2}. {rack:<8} {position:<5} {word:<15}    0  NEUZNÁNO: {why}",
        "{n:>2}. {rack:<8} {position:<5} {word:<15}    0  REFUSED: {why}",
    ),
    "ref_q_percent": (
        "Program našel {best:bod|body|bodů}; hráč má {percent} %.",
        "The program found {best:point|points}; the player has {percent} %.",
    ),
    "ref_q_count": (
        "Úloha má {racks:zásobník|zásobníky|zásobníků}, odpověď {answers:tah|tahy|tahů}.",
        "The task has {racks:rack|racks}, the answer {answers:move|moves}.",
    ),
    # bad input of partiar best, duplicate and qualify (desk/referee_texts.py: error_text)
    "err_rack_letter": (
        "zásobník {rack}: písmeno {letter} není v sadě {tiles} (jiná sada: --tiles)",
        "rack {rack}: letter {letter} is not in the {tiles} set (another set: --tiles)",
    ),
    "err_rack_size": ("zásobník {rack} má {count} kamenů, nejvýš {limit}", "rack {rack} has {count} tiles, at most {limit}"),
    "err_rack_count": (
        "zásobník {rack} má {letter} {count}krát, celá sada jen {limit}krát",
        "rack {rack} has {count} x {letter}, the whole set only {limit}",
    ),
    "err_rack_unseen": (
        "zásobník {rack} má {letter} {count}krát, ale na desce už leží zbylé: mimo desku je {letter} jen {limit}krát "
        "(? = žolík)",
        "rack {rack} has {count} x {letter}, but the others are on the board: only {limit} x {letter} off the board "
        "(? = blank)",
    ),
    "best_no_play": (
        "se zásobníkem {rack} nelze na této pozici položit žádné slovo (návratový kód 1)",
        "rack {rack} has no legal play on this position (exit status 1)",
    ),
    "best_undeclared_utf8": (
        "pozor: {path} je v UTF-8, ale nemá první řádek '#character-encoding UTF-8' (bez něj GCG znamená ISO "
        "8859-1); čtu ho jako UTF-8",
        "warning: {path} is UTF-8 but lacks the first line '#character-encoding UTF-8' (without it GCG means ISO "
        "8859-1); reading it as UTF-8",
    ),
    "gcg_undeclared_8bit": (
        "pozor: {path} nemá první řádek '#character-encoding' a není v UTF-8; podle písmen je to starý český záznam "
        "v kódování {encoding}, čtu ho tak (bez toho řádku GCG znamená ISO 8859-1). Převod: iconv -f {encoding} "
        "-t UTF-8 a první řádek '#character-encoding UTF-8'",
        "warning: {path} lacks the first line '#character-encoding' and is not UTF-8; by its letters it is an old "
        "Czech record in {encoding}, read as such (without that line GCG means ISO 8859-1). To convert: iconv -f "
        "{encoding} -t UTF-8 and the first line '#character-encoding UTF-8'",
    ),
    "best_score_differs": (
        "pozor: záznam nesouhlasí s pravidly: {difference}",
        "warning: the record disagrees with the rules: {difference}",
    ),
    "err_empty_rack": ("prázdný zásobník", "empty rack"),
    "err_no_lexicon": (
        "slovník {path} neexistuje (postaví ho partiar lexicon build, jiný soubor: --lexicon)",
        "no lexicon index {path} (partiar lexicon build makes one; another file: --lexicon)",
    ),
    "err_best_args": ("čekám [GCG] ZÁSOBNÍK, ne {args!r}", "expected [GCG] RACK, got {args!r}"),
    "err_best_n": ("-n musí být aspoň 1, ne {n}", "-n must be at least 1, not {n}"),
    "err_draw_bag": (
        "{tiles}: v sáčku už není {missing} (zadejte vylosované kameny znovu)",
        "{tiles}: the bag has no {missing} left (enter the tiles drawn again)",
    ),
    "err_draw_none": (
        "nezadán žádný kámen: počet kamenů k losování {need} (zadejte je)",
        "no tiles given: {need} tiles are to be drawn (enter them)",
    ),
    "err_draw_count": (
        "{tiles}: počet kamenů k losování {need}, zadáno {count} (zadejte je znovu)",
        "{tiles}: {need} tiles are to be drawn, {count} given (enter them again)",
    ),
    "err_no_file": ("soubor {path} neexistuje", "no file {path}"),
    "err_unreadable": ("soubor {path} nejde přečíst ({error})", "cannot read {path} ({error})"),
    "err_lexicon": ("chybný soubor slovníku: {error}", "malformed lexicon index: {error}"),
    "ref_q_short_rack": (
        "{source}: {n}: zásobník {rack} má jen {count} z 7 kamenů (v úloze se losuje vždy všech sedm)",
        "{source}: {n}: rack {rack} has only {count} of 7 tiles (a task draws all seven each move)",
    ),
    "ref_q_at_least_1": ("{option} musí být aspoň 1, ne {value}", "{option} must be at least 1, not {value}"),
    "ref_q_no_racks": ("{source}: žádný zásobník", "{source}: no racks"),
    "ref_q_not_utf8": ("{source}: {n}: text není v kódování UTF-8 (uložte soubor jako UTF-8)",
                       "{source}: {n}: the text is not UTF-8 (save the file as UTF-8)"),
    "ref_q_bad_answer": (
        "{path}: tah {n}: čekám „POZICE SLOVO“ nebo „-“, ne {line!r}",
        "{path}: move {n}: expected 'POSITION WORD' or '-', got {line!r}",
    ),
    "ref_claimed": ("napsáno {claimed}, správně {score}", "claimed {claimed}, right {score}"),
    # why a slip's placement is refused
    "reason_notation": ("pozice nebo slovo nejde přečíst", "the position or word cannot be read"),
    "reason_main": ("nové kameny tvoří {word} na {position}", "the new tiles make {word} at {position}"),
    "reason_no_tiles": ("slovo nepřidává žádný kámen", "the word adds no tile"),
    "reason_duplicate_square": ("dva kameny na jednom poli", "two tiles on one square"),
    "reason_off_board": ("slovo přesahuje desku", "the word runs off the board"),
    "reason_occupied": ("slovo nesouhlasí s kameny na desce", "the word does not match the tiles on the board"),
    "reason_not_in_line": ("kameny nejsou v jedné řadě", "the tiles are not in one line"),
    "reason_gap": ("mezera ve slově", "a gap in the word"),
    "reason_first_not_centre": ("první tah nevede přes střed", "the first move misses the centre"),
    "reason_first_one_tile": ("první tah jediným kamenem", "a first move of one tile"),
    "reason_not_connected": ("slovo se nedotýká kamenů na desce", "the word does not touch the tiles on the board"),
    "reason_blank_without_letter": ("žolík bez písmene", "a blank without a letter"),
    # partiar gcg verify / rescore (device/cli/gcg.py); what a reader expected and why a replay failed are
    # worded by the engine in English (engine.gcg.EXPECTED, engine.replay.PROBLEMS), in Czech below
    "gcg_parse_error": ("{source}:{line}: očekává se {expected}", "{source}:{line}: expected {expected}"),
    "gcg_line_text": ("; na řádku stojí {text!r}", ": {text!r}"),
    "gcg_replay_error": ("{source}:{line}: {problem}", "{source}:{line}: {problem}"),
    "gcg_cannot_read": ("{path}: soubor nelze přečíst: {reason}", "{path}: cannot read the file: {reason}"),
    "gcg_cannot_write": ("nelze zapsat {path}: {reason}", "cannot write {path}: {reason}"),
    "gcg_os_enoent": ("soubor ani složka neexistuje", "no such file or directory"),
    "gcg_os_eacces": ("přístup odepřen", "permission denied"),
    "gcg_os_eisdir": ("je to složka, ne soubor", "is a directory, not a file"),
    "gcg_difference": (
        "{source}:{line}: liší se {what}: zapsáno {recorded_score:+d} (součet {recorded_total}), "
        "správně {engine_score:+d} (součet {engine_total})",
        "{source}:{line}: {what} differ: recorded {recorded_score:+d} (total {recorded_total}), "
        "engine {engine_score:+d} (total {engine_total})",
    ),
    "gcg_what_score": ("body", "score"),
    "gcg_what_total": ("průběžný součet", "running total"),
    "gcg_what_rack": ("zásobník {left!r} (správně {engine!r})", "rack {left!r} (engine: {engine!r})"),
    "gcg_summary": (
        "{path}: {events} záznamů, {status} (sada {tiles}, body za ukončení {going_out})",
        "{path}: {events} events, {status} (tiles {tiles}, going out {going_out})",
    ),
    "gcg_no_differences": ("bez rozdílů", "no differences"),
    "gcg_differences": ("rozdílů: {n}", "{n} difference(s)"),
    # partiar diag (device/cli/diag.py): what the maker or referee bringing a table up reads
    "diag_status_ok": ("OK", "OK"),
    "diag_status_fail": ("CHYBA", "FAIL"),
    "diag_status_look": ("OVĚŘIT", "LOOK"),
    "diag_check_button_a": ("tlačítko A", "button_a"),
    "diag_check_button_b": ("tlačítko B", "button_b"),
    "diag_check_encoder_push": ("stisk knoflíku", "encoder_push"),
    "diag_check_encoder_turn": ("otočení knoflíku", "encoder_turn"),
    "diag_check_buzzer": ("bzučák", "buzzer"),
    "diag_check_led": ("LED", "led"),
    "diag_check_lcd": ("LCD {n}", "lcd{n}"),
    "diag_check_board_link": ("spojení s deskou", "board_link"),
    "diag_check_board_snapshot": ("snímek desky", "board_snapshot"),
    "diag_check_board_cells": ("pole desky", "board_cells"),
    "diag_check_inputs": ("vstupy", "inputs"),
    "diag_check_lcds": ("displeje", "lcds"),
    "diag_check_board": ("deska", "board"),
    "diag_part": ("-- {part}", "-- {part}"),
    "diag_header": (
        "partiar diag: piny podle {source}, ovladač pinů {factory}, deska na {url}",
        "partiar diag: pins from {source}, {factory} pins, board on {url}",
    ),
    "diag_config_error": ("partiar diag: chybná konfigurace: {error}", "partiar diag: {error}"),
    "run_config_error": ("partiar run: chybná konfigurace: {error}", "partiar run: {error}"),
    "diag_press_button_a": ("stiskněte tlačítko hráče A", "press player A's button"),
    "diag_press_button_b": ("stiskněte tlačítko hráče B", "press player B's button"),
    "diag_press_encoder_push": ("stiskněte knoflík", "press the encoder knob"),
    "diag_press_encoder_turn": (
        "otočte knoflíkem o jedno cvaknutí kterýmkoli směrem", "turn the encoder knob one click either way"
    ),
    "diag_prompt": ("  -> {text} (do {timeout:g} s)", "  -> {text} (within {timeout:g} s)"),
    "diag_ask": ("  ?  {question} [a/n] ", "  ?  {question} [y/n] "),
    "diag_stuck": (
        "{pin} (pin {header}) hlásí stisk dřív, než kdo stiskl: zkrat na GND nebo spínač zapojený jako rozpínací",
        "{pin} (header {header}) reads pressed before any press: shorted to GND or switch wired normally-closed",
    ),
    "diag_pressed": ("{pin} (pin {header}) stisknuto", "{pin} (header {header}) pressed"),
    "diag_never_released": (", ale nikdy uvolněno", ", never released"),
    "diag_no_press": (
        "na {pin} (pin {header}) žádný stisk do {timeout:g} s: zkontrolujte spínač, jeho vodič GND a pin konektoru",
        "no press seen on {pin} (header {header}) within {timeout:g} s: check the switch, its GND wire and the "
        "header pin",
    ),
    "diag_turned": ("{steps:+d} krok(ů) ({direction}) na {a}/{b}", "{steps:+d} step(s) ({direction}) on {a}/{b}"),
    "diag_clockwise": ("po směru hodin", "clockwise"),
    "diag_counter_clockwise": ("proti směru hodin", "counter-clockwise"),
    "diag_no_turn": (
        "na {a}/{b} žádné otočení do {timeout:g} s: zkontrolujte A/B a společnou GND; prohozené A/B jen obrátí směr",
        "no rotation seen on {a}/{b} within {timeout:g} s: check A/B and the common GND; swapped A/B only "
        "reverses the direction",
    ),
    "diag_buzzer_passive": ("pasivní bzučák na {pin} (pin {header})", "passive buzzer on {pin} (header {header})"),
    "diag_buzzer_active": ("aktivní bzučák na {pin} (pin {header})", "active buzzer on {pin} (header {header})"),
    "diag_ask_buzzer": ("Zní bzučák ({kind})?", "Is the buzzer sounding ({kind})?"),
    "diag_not_following": ("{what}: pin nesleduje zapnutí a vypnutí", "{what}: the pin did not follow on/off"),
    "diag_buzzer_tone": ("{kind}: buzen tónem {hz:g} Hz", "{kind}: driven with {hz:g} Hz"),
    "diag_buzzer_on_off": ("{kind}: zapnut a vypnut", "{kind}: driven on/off"),
    "diag_heard": (", je slyšet", ", heard"),
    "diag_not_heard": (", NENÍ slyšet: zkontrolujte Q3 a vodiče bzučáku", ", NOT heard: check Q3 and the buzzer wires"),
    "diag_listen": (", poslouchejte, zda pípne", ", listen for a beep"),
    "diag_ask_led": ("Svítí stavová LED ({pin}, pin {header})?", "Is the status LED on ({pin}, header {header})?"),
    "diag_led_switched": ("{pin} (pin {header}) zapnuta a vypnuta", "{pin} (header {header}) switched on and off"),
    "diag_seen": (", je vidět", ", seen"),
    "diag_led_not_seen": (
        ", NENÍ vidět: zkontrolujte polaritu LED a R4", ", NOT seen: check the LED's polarity and R4"
    ),
    "diag_look_led": (", podívejte se na LED", ", look at the LED"),
    "diag_no_backpack": (
        "na adrese 0x{address:02X} sběrnice I2C {bus} neodpovídá žádný převodník (nalezeno: {found}): zkontrolujte "
        "SDA/SCL, 5 V a propojky adresy",
        "no backpack answers at 0x{address:02X} on I2C bus {bus} (found {found}): check SDA/SCL, 5 V and the "
        "address jumpers",
    ),
    "diag_nothing": ("nic", "nothing"),
    "diag_lcd_library": (
        "knihovna displeje selhala (chyb: {errors}): viz log", "the LCD library failed ({errors} error(s)): see the log"
    ),
    "diag_ask_lcd": (
        "Ukazuje LCD {n} 'LCD{n} 0123...' a řádek plných políček?",
        "Does LCD {n} show 'LCD{n} 0123...' and a row of full blocks?",
    ),
    "diag_pattern": (
        "testovací obrazec zapsán ({columns}x{lines}, {wiring})", "test pattern written ({columns}x{lines}, {wiring})"
    ),
    "diag_lcd_not_readable": (
        ", NENÍ čitelný: otočte trimrem kontrastu, zkontrolujte D4-D7/RS/E",
        ", NOT readable: turn the contrast trimmer, check D4-D7/RS/E",
    ),
    "diag_look_lcd": (", podívejte se na displej", ", look at the LCD"),
    "diag_no_handshake": (
        "deska na {url} se do {timeout:g} s neohlásila{why}: je Pico nahrané a připojené, je adresa správně?",
        "no handshake from the board on {url} within {timeout:g} s{why}: is the Pico flashed and plugged in, "
        "is the URL right?",
    ),
    "diag_last": (" (naposledy: {reason})", " (last: {reason})"),
    "diag_board": ("deska {board!r}, firmware {version} na {url}", "board {board!r} firmware {version} on {url}"),
    "diag_no_snapshot": ("žádný snímek desky do {timeout:g} s", "no snapshot within {timeout:g} s"),
    "diag_snapshot": (
        "{rows}x{cols} polí, na desce kamenů: {tiles}", "{rows}x{cols} cells, {tiles} tile(s) on the board"
    ),
    "diag_faulty": ("vadných polí: {count}: {cells}", "{count} faulty cell(s): {cells}"),
    "diag_fault_open": ("rozpojeno", "open"),
    "diag_fault_short": ("zkrat", "short"),
    "diag_fault_band": ("mimo pásma", "band"),
    "diag_no_faults": ("žádné vadné pole", "no cell faults"),
    "diag_summary": (
        "\n{ok} v pořádku, {failed} chyb, {look} ověřit okem či uchem",
        "\n{ok} ok, {failed} failed, {look} to check by eye/ear",
    ),
    "sheet_missing": (
        "partiar sheet: soubor {path} neexistuje: zkontrolujte cestu k deníku hry (journal.jsonl ve složce stolu)",
        "partiar sheet: {path} does not exist: check the path to the game's journal (journal.jsonl in the table's"
        " folder)",
    ),
    "sheet_unreadable": ("partiar sheet: {path} nelze přečíst: {error}", "partiar sheet: cannot read {path}: {error}"),
    "sheet_no_game": (
        "partiar sheet: {where}: v deníku není žádná partie (chybí platný začátek hry)",
        "partiar sheet: {where}: the journal holds no game (no valid start of a game)",
    ),
    "sheet_write_failed": ("partiar sheet: nelze zapsat {path}: {error}", "partiar sheet: cannot write {path}: {error}"),
    "sheet_damaged": (
        "partiar sheet: pozor: {where}; partiář ukazuje {n} záznamů před tímto řádkem",
        "partiar sheet: warning: {where}; the sheet shows the {n} records before this line",
    ),
}


CONFIG: dict[str, tuple[str, str, str, str]] = {
    # code: (what is wrong in Czech, in English, how to fix it in Czech, in English); values as ConfigError got them
    "type": ("musí být {kind}, je {value!r}", "must be {kind}, got {value!r}", "{kind_fix}", "{kind_fix}"),
    "choice": (
        "musí být jedno z: {choices}; je {value!r}", "must be one of {choices}; got {value!r}",
        "napište jednu z hodnot: {choices}", "write one of: {choices}",
    ),
    "unknown_key": (
        "neznámý klíč (známé: {known})", "unknown key (known: {known})",
        "opravte překlep, nebo řádek smažte", "correct the spelling, or delete the line",
    ),
    "unknown_section": (
        "neznámý oddíl (známé: table, display, sim, hub)", "unknown section (known: table, display, sim, hub)",
        "opravte název oddílu v hranatých závorkách, např. [table]",
        "correct the section's name in square brackets, e.g. [table]",
    ),
    "bom": (
        "soubor začíná značkou pořadí bajtů (BOM)", "starts with a byte-order mark (BOM)",
        "uložte soubor jako UTF-8 bez BOM", "save the file as UTF-8 without BOM",
    ),
    "toml": (
        "není platný TOML: {detail}", "not valid TOML: {detail}",
        "na řádku {at} zkontrolujte hranaté závorky, uvozovky a rovnítko (klíč = hodnota)",
        "check the square brackets, quotes and the equals sign (key = value) on line {at}",
    ),
    "cannot_read": (
        "soubor nelze přečíst: {error}", "cannot read: {error}",
        "zkontrolujte cestu k souboru a právo jej číst", "check the file's path and the right to read it",
    ),
    "not_utf8": (
        "není text v UTF-8: {error}", "not UTF-8 text: {error}",
        "uložte soubor v kódování UTF-8", "save the file as UTF-8",
    ),
    "rules": (
        "pravidla hra odmítá: {error}", "{error}",
        "opravte volbu v [table.rules] (seznam voleb je v docs/game.md)",
        "correct the option in [table.rules] (docs/game.md lists them)",
    ),
    "players": (
        "musí uvádět 2 až 4 neprázdná jména, je {value!r}", "must list 2 to 4 non-empty names, got {value!r}",
        'napište jména v hranatých závorkách, např. players = ["Eva Nová", "Jan Malý"]',
        'write the names in square brackets, e.g. players = ["Eva Nová", "Jan Malý"]',
    ),
    "player_name": (
        "jméno hráče {value!r} nesmí obsahovat řídicí znak (např. konec řádku) a smí mít nejvýš 64 znaků",
        "player name {value!r} must hold no control character (e.g. a line break) and at most 64 characters",
        'napište každé jméno na jeden řádek bez \\n, např. players = ["Eva Nová", "Jan Malý"]',
        'write each name on one line without \\n, e.g. players = ["Eva Nová", "Jan Malý"]',
    ),
    "doubles_players": (
        "čtyřhra {ruleset} potřebuje 4 jména, nejprve družstvo 1, v pořadí sezení podle pravidel (1. a 3. jedno "
        "družstvo, 2. a 4. druhé); je {value!r}",
        "{ruleset} doubles need 4 names, team 1 first, seated as the seed says (1st and 3rd one team, 2nd and 4th "
        "the other); got {value!r}",
        'napište 4 jména, např. players = ["A1", "B1", "A2", "B2"]',
        'write 4 names, e.g. players = ["A1", "B1", "A2", "B2"]',
    ),
    "doubles_clock": (
        "čtyřhra {ruleset} se hraje s hodinami {ruleset!r}, je {value!r}",
        "{ruleset} doubles run the {ruleset!r} clock, got {value!r}",
        'napište clock = "{ruleset}", nebo řádek smažte', 'write clock = "{ruleset}", or delete the line',
    ),
    "serial_url": (
        "nesmí být prázdná (např. /dev/ttyACM0 nebo socket://host:port)",
        "must not be empty (e.g. /dev/ttyACM0 or socket://host:port)",
        'napište adresu desky, např. serial_url = "/dev/ttyACM0"',
        'write the board\'s address, e.g. serial_url = "/dev/ttyACM0"',
    ),
    "display_count": (
        "musí být 1 nebo 2, je {value!r}", "must be 1 or 2, got {value!r}",
        "napište count = 1 (jeden displej) nebo count = 2", "write count = 1 (one LCD) or count = 2",
    ),
    "lcd_size": (
        "displej {columns}x{lines} není podporován (16x2, 20x2 nebo 20x4)",
        "LCD size {columns}x{lines} is not supported (16x2, 20x2 or 20x4)",
        "nastavte columns a lines na 16 a 2, 20 a 2, nebo 20 a 4", "set columns and lines to 16 and 2, 20 and 2, or 20 and 4",
    ),
    "port": (
        "musí být 0-65535, je {value}", "must be 0-65535, got {value}",
        "napište číslo portu, 0 = vybrat volný", "write a port number, 0 picks a free one",
    ),
    "link_timeout": (
        "musí být 0-600 sekund, je {value!r}", "must be 0-600 seconds, got {value!r}",
        "napište počet sekund, 0 = jako skutečný stolek", "write a number of seconds, 0 = the real table's figure",
    ),
    "manual_time": (
        "ruční čas je povolen jen s table.pin_factory = 'mock'",
        "manual time is only allowed with table.pin_factory = 'mock'",
        'smažte time = "manual", nebo nastavte pin_factory = "mock" (simulátor)',
        'delete time = "manual", or set pin_factory = "mock" (the simulator)',
    ),
    "broker": (
        "musí být adresa mqtt:// nebo mqtts://, je {value!r}", "must be an mqtt:// or mqtts:// URL, got {value!r}",
        'např. broker = "mqtts://hub.local:8883"', 'e.g. broker = "mqtts://hub.local:8883"',
    ),
    "table_id": (
        "stolek, který publikuje, potřebuje své uživatelské jméno u brokeru: 1-32 znaků z A-Z a-z 0-9 _ - (ne "
        "'hub'), je {value!r}",
        "a table that publishes needs its broker user name: 1-32 of A-Z a-z 0-9 _ - (not 'hub'), got {value!r}",
        'napište jméno, pod kterým jej zná broker, např. table_id = "stul07"',
        'write the name the broker knows it by, e.g. table_id = "stul07"',
    ),
    "ruleset_players": (
        "pravidla {ruleset!r} jsou pro {allowed} hráče, zadáno {n}: {players}",
        "ruleset {ruleset!r} is for {allowed} players, got {n}: {players}",
        "upravte seznam players, nebo zvolte jiná pravidla (ruleset)", "change the players, or choose another ruleset",
    ),
    "game_refuses": (
        "hra je odmítá: {error}", "the game refuses them: {error}",
        "opravte seznam players", "correct the players",
    ),
    "clock_players": (
        "hodiny {clock!r} pro {n} hráčů: {error}", "clock {clock!r} with {n} players: {error}",
        "zvolte hodiny pro tento počet hráčů (clock)", "choose a clock for this number of players (clock)",
    ),
    "state_dir_file": (
        "{folder!r} nemůže držet záznam hry: je to soubor, ne složka",
        "{folder!r} cannot hold the game journal: it is a file, not a folder",
        "{state_dir_fix}", "{state_dir_fix}",
    ),
    "state_dir_create": (
        "{folder!r} nemůže držet záznam hry: nelze ji vytvořit ({error})",
        "{folder!r} cannot hold the game journal: cannot create it ({error})",
        "{state_dir_fix}", "{state_dir_fix}",
    ),
    "state_dir_not_folder": (
        "{folder!r} nemůže držet záznam hry: není to složka", "{folder!r} cannot hold the game journal: it is not a folder",
        "{state_dir_fix}", "{state_dir_fix}",
    ),
    "state_dir_write": (
        "{folder!r} nemůže držet záznam hry: nelze do ní zapisovat ({error})",
        "{folder!r} cannot hold the game journal: cannot write there ({error})",
        "{state_dir_fix}", "{state_dir_fix}",
    ),
    "journal_not_file": (
        "{folder!r} nemůže držet záznam hry: {name} není obyčejný soubor",
        "{folder!r} cannot hold the game journal: {name} is not a regular file",
        "{name} přesuňte jinam (záznam hry nemažte), nebo nastavte jinou state_dir",
        "move {name} elsewhere (never delete a game journal), or set another state_dir",
    ),
    "journal_open": (
        "{folder!r} nemůže držet záznam hry: {name} nelze otevřít pro zápis ({error})",
        "{folder!r} cannot hold the game journal: cannot open {name} for writing ({error})",
        "dejte démonovi právo zapisovat do {name} (chown/chmod)", "give the daemon the right to write {name} (chown/chmod)",
    ),
    "ca_only_mqtts": (
        "platí jen pro broker mqtts://, broker je {broker!r}", "only applies to an mqtts:// broker, got broker {broker!r}",
        "smažte ca_file, nebo napište broker = \"mqtts://…\"", "delete ca_file, or write broker = \"mqtts://…\"",
    ),
    "ca_missing": (
        "soubor neexistuje: {path!r}", "no such file: {path!r}",
        "napište cestu k certifikátu CA turnaje (PEM)", "write the path of the tournament's CA certificate (PEM)",
    ),
    "ca_unreadable": (
        "nelze přečíst: {path!r} ({error})", "cannot be read: {path!r} ({error})",
        "dejte démonovi právo soubor číst", "give the daemon the right to read the file",
    ),
    "ca_not_pem": (
        "{path!r} neobsahuje certifikát PEM: {error}", "{path!r} holds no PEM certificate: {error}",
        "použijte certifikát CA turnaje ve formátu PEM (-----BEGIN CERTIFICATE-----)",
        "use the tournament's CA certificate in PEM form (-----BEGIN CERTIFICATE-----)",
    ),
    "pins_unavailable": (
        "piny {name!r} zde nejsou k dispozici: {error}", "{name} pins are not available here: {error}",
        'na Raspberry Pi pin_factory = "lgpio"; na PC "mock" (zkouška nanečisto)',
        'on a Raspberry Pi pin_factory = "lgpio"; on a PC "mock" (a dry run)',
    ),
    "pins_unknown": (
        "neznámý ovladač pinů {name!r}", "unknown pin factory {name!r}",
        "napište jednu z hodnot: lgpio, rpigpio, native, mock", "write one of: lgpio, rpigpio, native, mock",
    ),
    "i2c_not_handed": (
        "piny předané stolku nemají sběrnici I2C pro displeje",
        "the pins handed to the table come without an I2C bus for the LCDs",
        'nastavte mode = "gpio4", nebo spusťte stolek se sběrnicí I2C',
        'set mode = "gpio4", or run the table with an I2C bus',
    ),
    "i2c_on_mock": (
        "displeje na I2C nemají na simulovaných pinech sběrnici", "I2C LCDs on mock pins have no bus to talk to",
        'spusťte to na stolku, s mode = "gpio4", nebo v `partiar sim` (ten sběrnici emuluje)',
        'run it on the table unit, with mode = "gpio4", or in `partiar sim` (it emulates one)',
    ),
    "i2c_cannot_open": (
        "sběrnici I2C {bus} nelze otevřít ({error})", "I2C bus {bus} cannot be opened ({error})",
        "zapněte I2C (raspi-config > Interface Options > I2C) a zkontrolujte i2c.bus v mapě pinů",
        "enable I2C (raspi-config > Interface Options > I2C) and check i2c.bus in the pin map",
    ),
    # the pin map (wiring/pins.toml, or the config's pins_file)
    "missing": ("chybí", "missing", "doplňte klíč {name}", "add the key {name}"),
    "pin_table": (
        "musí být tabulka s bcm a header, je {value!r}", "must be a table with bcm and header, got {value!r}",
        "např. {name} = {{ bcm = 17, header = 11 }}", "e.g. {name} = {{ bcm = 17, header = 11 }}",
    ),
    "schema": (
        "verze {value} není podporována (1)", "version {value} is not supported (1)", "napište schema = 1", "write schema = 1",
    ),
    "lcd_list": (
        "musí uvádět 1 až {most} displeje (oddíly [[lcd]])", "must list 1 to {most} LCDs ([[lcd]] tables)",
        "popište každý displej v oddílu [[lcd]]", "describe each LCD in an [[lcd]] section",
    ),
    "lcd_lines": (
        "chybí vodič(e) {missing}", "missing line(s) {missing}",
        "doplňte piny rs, e, d4, d5, d6 a d7", "add the pins rs, e, d4, d5, d6 and d7",
    ),
    "not_empty": (
        "nesmí být prázdný", "must not be empty", "napište adresu, např. /dev/ttyACM0", "write an address, e.g. /dev/ttyACM0",
    ),
    "lcd_too_few": (
        "zapojuje {wired} displej(e), ale konfigurace chce display.count = {count}",
        "wires {wired} LCD(s) but the config's display.count is {count}",
        "nastavte v konfiguraci display.count = {wired}, nebo v mapě pinů popište další displej",
        "set display.count = {wired} in the config, or describe another LCD in the pin map",
    ),
    "lcd_asked": (
        "má {wired} displej(e), požadován displej {n}", "has {wired} LCD(s), LCD {n} asked for",
        "v mapě pinů popište další displej [[lcd]]", "describe another [[lcd]] in the pin map",
    ),
    "pins_default_unreadable": (
        "soubor nelze přečíst: {error}", "cannot read: {error}",
        "instalace bez složky wiring/: nastavte [table] pins_file na wiring/pins.toml ze zdrojů",
        "an installed copy without wiring/: set [table] pins_file to the checkout's wiring/pins.toml",
    ),
    "wiring": (
        "zapojení: {detail}", "{detail}",
        "opravte zapojení v mapě pinů; `partiar wiring check` vypíše všechny problémy",
        "correct the wiring in the pin map; `partiar wiring check` lists every problem",
    ),
}
"""Config errors (``device.errors.ConfigError`` codes): what is wrong and how to fix it, Czech and English."""

CONFIG_KINDS: dict[str, tuple[str, str, str, str]] = {
    # a value's expected kind: (Czech, English, the fix in Czech, in English)
    "str": ("text v uvozovkách", "text in quotes", 'dejte hodnotu do uvozovek: {name} = "…"',
            'put the value in quotes: {name} = "…"'),
    "int": ("celé číslo", "an integer", "napište celé číslo bez uvozovek", "write a whole number without quotes"),
    "number": ("číslo", "a number", "napište číslo bez uvozovek", "write a number without quotes"),
    "list": ("seznam", "a list", 'napište seznam v hranatých závorkách: {name} = ["…", "…"]',
             'write a list in square brackets: {name} = ["…", "…"]'),
    "table": ("tabulka (oddíl)", "a table (section)", "napište jej jako oddíl [{key}] s klíči pod ním",
              "write it as a section [{key}] with its keys below it"),
}  # fmt: skip

CONFIG_FRAMES: dict[str, tuple[str, str]] = {
    "cfg_key": ("klíč {key}", "config key {key!r}"),
    "cfg_pinmap_key": ("klíč mapy pinů {key}", "pin map key {key!r}"),
    "cfg_fix": ("oprava: {fix}", "fix: {fix}"),
    "cfg_state_dir_fix": (
        "nastavte state_dir na složku, do které démon smí zapisovat (výchozí /var/lib/partiar)",
        "set state_dir to a folder the daemon may write to (default /var/lib/partiar)",
    ),
}
"""How a config error names its place, and the fix's label."""


def config_frame(key: str, language: str = "cs") -> str:
    """A ``CONFIG_FRAMES`` text; raises KeyError for an unknown key."""
    return _pick(CONFIG_FRAMES, key, language)


def config_error(code: str, language: str, key: str, values: dict[str, object]) -> tuple[str, str]:
    """What is wrong and how to fix it for a ``CONFIG`` code, filled in (``name``: the key's last part; ``kind``:
    a ``CONFIG_KINDS`` code); raises KeyError for an unknown code."""
    cs, en, fix_cs, fix_en = CONFIG[code]
    english = language == "en"
    filled: dict[str, object] = {"key": key, "name": key.rsplit(".", 1)[-1], **values}
    if "kind" in values:
        kind_cs, kind_en, kind_fix_cs, kind_fix_en = CONFIG_KINDS[str(values["kind"])]
        filled["kind"] = kind_en if english else kind_cs
        filled["kind_fix"] = (kind_fix_en if english else kind_fix_cs).format(**filled)
    filled["state_dir_fix"] = config_frame("cfg_state_dir_fix", language)
    return (en if english else cs).format(**filled), (fix_en if english else fix_cs).format(**filled)


GCG_EXPECTED_CS: dict[str, str] = {
    "encoding_pragma": "'#character-encoding UTF-8' (jediné kódování, které GCG zná)",
    "utf8": "text v UTF-8, jak říká první řádek",
    "note_or_event": "řádek '#pragma' nebo záznam tahu '>přezdívka:' (text mimo #note)",
    "pragma_name": "název pragmy za '#'",
    "encoding_first_line": "'#character-encoding' jen na prvním řádku",
    "player_line": "'#{pragma} přezdívka Celé jméno'",
    "one_player_line": "jediný řádek '#{pragma}'",
    "nick_colon": "'>přezdívka: ...' (přezdívka a dvojtečka)",
    "declared_nick": "přezdívka hráče z řádku #player ({known})",
    "declared_nick_none": "přezdívka hráče z řádku #player (žádný ještě nebyl uveden)",
    "event": (
        "záznam '>přezdívka: ZÁSOBNÍK POZICE SLOVO +BODY SOUČET' (nebo '-', '-KAMENY', '--', '(challenge)', "
        "'(time)', '(ZÁSOBNÍK)' místo POZICE SLOVO)"
    ),
    "running_total": "průběžný součet (celé číslo) jako poslední pole",
    "signed_score": "body se znaménkem, např. +24, před průběžným součtem",
    "position": "pozice jako 8D (vodorovně) nebo D8 (svisle) na desce 15x15",
    "word": "slovo z písmen, '.' za kámen už ležící na desce, malé písmeno za žolíka",
    "players": "řádky '#player1' a '#player2' s hráči",
    "distinct_nicks": "různé přezdívky hráčů, jsou: {nicks}",
}
"""What a GCG reader expected, in Czech, by ``engine.gcg.EXPECTED``'s codes (the English is the engine's)."""

REPLAY_PROBLEMS_CS: dict[str, str] = {
    "not_in_full": "{word!r} na {position} tvoří na desce {formed!r} na {formed_at} (slovo se zapisuje celé)",
    "nothing_to_take_back": "'--', ale {nick} nemá tah, který by vzal zpět",
    "illegal_placement": "nepovolené položení: {reason_text}{at}, slovo {word!r}",
    "unknown_letter": "písmeno {letter!r} není v sadě kamenů {tile_set}; zvolte sadu záznamu (--tiles)",
    "too_many_tiles": "na desce je {count} x {letter}, ale sada {tile_set} má jen {limit} x {letter} (? = žolík)",
    "not_on_rack": "{word!r} pokládá {missing}, ale zapsaný zásobník {rack} to nemá",
    "exchange_size": "výměna {count} kamenů: zásobník jich má nejvýš {limit}",
}
"""Why a record cannot be replayed, in Czech, by ``engine.replay.PROBLEMS``'s codes (the English is the engine's;
``reason_text`` is the ``reason_*`` text of the placing rule, ``at`` names the squares, if any)."""


def gcg_expected(code: str, language: str = "cs") -> str:
    """What a GCG reader expected (an ``engine.gcg.EXPECTED`` code) as a template; raises KeyError if unknown."""
    from engine.gcg import EXPECTED as GCG_EXPECTED_EN

    return GCG_EXPECTED_EN[code] if language == "en" else GCG_EXPECTED_CS[code]


def replay_problem(code: str, language: str = "cs") -> str:
    """Why a record cannot be replayed (an ``engine.replay.PROBLEMS`` code) as a template; KeyError if unknown."""
    from engine.replay import PROBLEMS as REPLAY_PROBLEMS_EN

    return REPLAY_PROBLEMS_EN[code] if language == "en" else REPLAY_PROBLEMS_CS[code]


def _pick(table: dict[str, tuple[str, str]], key: str, language: str) -> str:
    cs, en = table[key]
    return en if language == "en" else cs


def text(key: str, language: str = "cs") -> str:
    """The LCD/menu text for a key in a language (``cs`` or ``en``); raises KeyError for an unknown key."""
    return _pick(TEXTS, key, language)


def phrase(key: str, language: str = "cs") -> str:
    """A longer sentence (pages, the hub's state) for a key; raises KeyError for an unknown key."""
    return _pick(PHRASES, key, language)


class Count(int):
    """A number that a text may write with its noun in the right form: ``{score:bod|body|bodů}`` gives ``1 bod``,
    ``3 body``, ``5 bodů`` (Czech: one, two to four, the rest), ``{score:point|points}`` gives ``1 point``,
    ``2 points``; any other format spec formats the number."""

    def __format__(self, spec: str) -> str:
        if "|" not in spec:
            return format(int(self), spec)
        forms = spec.split("|")
        n = abs(int(self))
        if len(forms) == 2:
            return f"{int(self)} {forms[0] if n == 1 else forms[1]}"
        return f"{int(self)} {forms[0] if n == 1 else forms[1] if 2 <= n <= 4 else forms[2]}"


def cli(key: str, language: str = "cs") -> str:
    """A command's output line for a key; raises KeyError for an unknown key."""
    return _pick(CLI, key, language)


def counted(key: str, language: str = "cs", **values: object) -> str:
    """The :func:`cli` text for a key with ``values`` filled in, whole numbers as :class:`Count` (so the text may
    give their nouns' forms); raises KeyError for an unknown key."""
    return cli(key, language).format(**{k: Count(v) if type(v) is int else v for k, v in values.items()})


def term(key: str, language: str = "cs") -> str:
    """A word of the score sheet (end reasons ``played_out``..., ``pass``, ``winner``...) in a language."""
    from engine.scoresheet import LABELS as SHEET_LABELS

    return SHEET_LABELS["en" if language == "en" else "cs"][key]
