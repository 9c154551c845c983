"""Every way a match file can be refused is said in the player's words: sentences, cards named, nothing copied.

A file that cannot be loaded gets one line of catalogue sentences in the player's language. When
the engine made the check (the rules, the saved position, a move), its ``ScopaError.reason`` (a
code and its values) picks the sentence, so the engine's English developer message, with its
colons and card codes ("The cards do not make one 40-card pack: 39 distinct cards."), is only
``SaveFileError.detail``. Nothing from the file, such as an unknown field's name or a text that
is not a card, is said back. Each case is a real file, checked through ``import_match``, the
console's ``import FILE``, ``scopa --import FILE`` and the autosave, in English and Italian.
"""
from __future__ import annotations

import errno
import io
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.console import ScriptInput, lines_of, request_for
from helpers.spoken import assert_spoken, states_of
from helpers.spoken import good_moves as _good_illegal
from helpers.storage import TWO, played, write_damaged_file
from scopa.config import Settings
from scopa.console.app import Program
from scopa.console.terminal import Output
from scopa.engine import ALL_CARDS, POSITION_CODES, RULES_CODES, Card, Reason, Rules
from scopa.engine.errors import reason
from scopa.narration import NAMINGS, CardNames, Messages, explain_invalid
from scopa.speech import RecordingSpeaker
from scopa.storage import SaveFileError, import_match, match_to_json
from scopa.storage import files as files_module
from scopa.table.persistence import Persistence

EN, IT = Messages("en"), Messages("it")
EN_HEAD, IT_HEAD = "Import failed. ", "Importazione non riuscita. "
Data = dict[str, Any]


# Files ------------------------------------------------------------------------------------

def _base(turns: int = 20, seed: int = 9) -> Data:
    """A two-player match in its first deal; after 20 turns it is in round 4 with two plays made."""
    return json.loads(match_to_json(played(Rules(), TWO, seed, turns=turns)))


def _changed(change: Callable[[Data], Any], turns: int = 20, seed: int = 9) -> Callable[[], Data]:
    def make() -> Data:
        data = _base(turns, seed)
        change(data)
        return data
    return make


def _state(change: Callable[[Data], Any], turns: int = 20, seed: int = 9) -> Callable[[], Data]:
    return _changed(lambda data: change(data["state"]), turns, seed)


def _move_card(state: Data, source: str, target: str, index: int = 0, target_index: int | None = None) -> None:
    """Move a card of the position from one list to another, such as from the stock to the table."""
    def place(name: str) -> list[str]:
        kind, _, number = name.partition(".")
        return state[kind][int(number)] if number else state[kind]
    card = place(source).pop(index)
    place(target).insert(len(place(target)) if target_index is None else target_index, card)


def _play(number: int, **change: Any) -> Callable[[Data], None]:
    return lambda state: state["history"][number - 1].update(change)


def _no_cards_in_hand(state: Data) -> None:
    """After 18 turns round 4 has just been dealt: put its cards back and call it round 3."""
    for hand in state["hands"]:
        state["stock"][:0] = hand
        hand.clear()
    state["round"] = 3


def _leftovers_kept(state: Data) -> None:
    """A finished deal whose last capture left a card on the table."""
    _move_card(state, f"piles.{state['last_capturer']}", "table")


# name: (file, code of the engine's reason or None, English reason, Italian reason)
CASES: dict[str, tuple[Callable[[], Any], str | None, str, str]] = {
    # The file itself
    "empty": (lambda: "", None, "The file is empty.", "Il file è vuoto."),
    "not json": (lambda: '{\n"format":\n}', None, "The file is not valid JSON. The error is on line 3.",
                 "Il file non è un JSON valido. Errore alla riga 3."),
    "not utf-8": (lambda: b"\xff\xfe\x00garbage", None, "The file is not text in UTF 8.",
                  "Il file non è un testo in UTF 8."),
    "not a match": (list, None, "The file does not hold a scopa match.",
                    "Il file non contiene una partita di scopa."),
    "wrong format": (lambda: {"format": "chess"}, None, ("The file is not a scopa match. It lacks the format "
                                                         "scopa-match."),
                     "Il file non è una partita di scopa. Manca il formato scopa-match."),
    "no version": (lambda: {"format": "scopa-match"}, None, "The file has no format version number.",
                   "Il file non indica la versione del formato."),
    "huge version": (_changed(lambda d: d.update(version=10 ** 300)), None,
                     "The format version of the file is not a number scopa can use.",
                     "La versione del formato del file non è un numero che scopa possa usare."),
    "negative version": (_changed(lambda d: d.update(version=-1)), None,
                         "The format version of the file is not a number scopa can use.",
                         "La versione del formato del file non è un numero che scopa possa usare."),
    "newer": (_changed(lambda d: d.update(version=3)), None,
              ("The file was made by a newer version of scopa, with file format 3. This one reads up to format 2. "
              "Update scopa to open it."),
              ("Il file viene da una versione più recente di scopa, con il formato 3. Questa versione legge fino al "
              "formato 2. Aggiorna scopa per aprirlo.")),
    "older": (_changed(lambda d: d.update(version=0)), None,
              "The file was made by an older version of scopa, with file format 0, that this one can no longer read.",
              "Il file viene da una versione vecchia di scopa, con il formato 0, che questa versione non legge più."),
    "missing field": (_changed(lambda d: d.pop("first_dealer")), None, "The file does not give the first dealer.",
                      "Il file non indica il primo mazziere."),
    "missing moves": (_changed(lambda d: d.pop("moves")), None, "The file does not give the list of moves.",
                      "Il file non indica l'elenco delle mosse."),
    "unknown field": (_changed(lambda d: d.update({"Say: 7D (" + "x" * 5000 + ")": 1})), None,
                      "The file has a field that scopa does not know.", "Il file ha un campo che scopa non conosce."),
    # The rules
    "rules not options": (_changed(lambda d: d.update(rules=[])), None, "The rules must be a set of named options.",
                          "Le regole devono essere un elenco di opzioni con nome."),
    "rules players not whole": (_changed(lambda d: d["rules"].update(players=2.0)), None,
                                "In the rules, the number of players must be a whole number.",
                                "Nelle regole il numero dei giocatori deve essere un numero intero."),
    "rules unknown option": (_changed(lambda d: d["rules"].update({"nonsense: 7D": True})), "unknown_option",
                             "The rules are not valid. The rules hold an option that scopa does not know.",
                             "Le regole non sono valide. Le regole contengono un'opzione che scopa non conosce."),
    "rules unknown variant": (_changed(lambda d: d["rules"].update(variant="briscola")), "unknown_variant",
                              "The rules are not valid. The rules name a game that scopa does not know.",
                              "Le regole non sono valide. Le regole indicano un gioco che scopa non conosce."),
    "rules players": (_changed(lambda d: d["rules"].update(players=5)), "players",
                      "The rules are not valid. Scopa is played by 2, 3 or 4 players.",
                      "Le regole non sono valide. A scopa si gioca in 2, 3 o 4."),
    "rules scopone": (_changed(lambda d: d["rules"].update(variant="scopone_classico")), "scopone_players",
                      "The rules are not valid. Scopone is a game for four players.",
                      "Le regole non sono valide. Lo scopone si gioca in quattro."),
    "rules target": (_changed(lambda d: d["rules"].update(target=12)), "target",
                     "The rules are not valid. The match target is 11, 16 or 21 points, or a single deal.",
                     ("Le regole non sono valide. Il traguardo della partita è di 11, 16 o 21 punti, oppure una sola "
                      "smazzata.")),
    "rules cirulla target": (_changed(lambda d: d["rules"].update(variant="cirulla", kings_redeal=False)),
                             "cirulla_target",
                             "The rules are not valid. Cirulla is played to 51 points, or a single deal.",
                             "Le regole non sono valide. La cirulla si gioca a 51 punti, oppure una sola smazzata."),
    "rules variant option": (_changed(lambda d: d["rules"].update(variant="scopa_15", most_cards=True)),
                             "variant_option", ("The rules are not valid. The option most cards is not played in this "
                             "game."), ("Le regole non sono valide. L'opzione presa con più carte obbligatoria non si "
                             "gioca in questo gioco.")),
    "rules win by two single": (_changed(lambda d: d["rules"].update(target=None, win_by_two=True)),
                                "win_by_two_single",
                                ("The rules are not valid. Win by two needs a match target, so a single deal cannot "
                                 "be won by two."),
                                ("Le regole non sono valide. La vittoria con due punti di scarto richiede un "
                                 "traguardo, e una sola smazzata non ne ha.")),
    "rules on or off": (_changed(lambda d: d["rules"].update(kings_redeal="yes")), "on_off",
                        "The rules are not valid. The option redeal for three kings must be on or off.",
                        ("Le regole non sono valide. L'opzione nuova distribuzione con tre re può essere solo attiva o "
                         "disattivata.")),
    "state rules": (_state(lambda s: s["rules"].update(napola="no")), "on_off",
                    "The rules of the saved position are not valid. The option napola must be on or off.",
                    ("Le regole della posizione salvata non sono valide. L'opzione napola può essere solo attiva o "
                     "disattivata.")),
    "state rules target": (_state(lambda s: s["rules"].update(target=21.0)), None,
                           "In the rules of the saved position, the match target must be a whole number.",
                           ("Nelle regole della posizione salvata il traguardo della partita deve essere un numero "
                            "intero.")),
    # The seats
    "seats": (_changed(lambda d: d.update(seats=[])), None, "The file must list 2 seats, one for each player.",
              "Il file deve indicare 2 giocatori, uno per posto."),
    "seat fields": (_changed(lambda d: d["seats"][0].pop("kind")), None,
                    "Seat 1 must have a name, a kind and, for a computer, a level.",
                    "Il giocatore 1 deve avere un nome, un tipo e, se è il computer, un livello."),
    "seat name": (_changed(lambda d: d["seats"][0].update(name="")), None,
                  "Seat 1 needs a name of 1 to 100 characters.",
                  "Il giocatore 1 deve avere un nome da 1 a 100 caratteri."),
    "seat control": (_changed(lambda d: d["seats"][0].update(name="Ann\u2028")), None,
                     "The name of seat 1 holds control characters.",
                     "Il nome del giocatore 1 contiene caratteri di controllo."),
    "seat kind": (_changed(lambda d: d["seats"][0].update(kind="robot")), None, "Seat 1 must be human or computer.",
                  "Il giocatore 1 deve essere una persona o il computer."),
    "seat level": (_changed(lambda d: d["seats"][1].update(level="godlike")), None,
                   "Seat 2 is a computer, so its level must be beginner, easy, medium, hard or expert.",
                   ("Il giocatore 2 è il computer, quindi il suo livello deve essere principiante, facile, medio, "
                    "difficile o esperto.")),
    "human level": (_changed(lambda d: d["seats"][0].update(level="easy")), None,
                    "Seat 1 is human, so it has no level.", "Il giocatore 1 è una persona, quindi non ha un livello."),
    # Seed, dealer, assisted deals, and how they match the position
    "seed": (_changed(lambda d: d.update(seed="x")), None, "The seed must be a whole number.",
             "Il numero della mescolata deve essere un numero intero."),
    "first dealer": (_changed(lambda d: d.update(first_dealer=None)), None, "The first dealer must be a whole number.",
                     "Il primo mazziere deve essere un numero intero."),
    "first dealer range": (_changed(lambda d: d.update(first_dealer=5)), None,
                           "The first dealer must be one of the 2 seats.",
                           "Il primo mazziere deve essere uno dei 2 giocatori."),
    "assisted": (_changed(lambda d: d.update(assisted_deals={})), None,
                 "The assisted deals must be a list of deal numbers.",
                 "Le smazzate con aiuto devono essere un elenco di numeri di smazzata."),
    "assisted range": (_changed(lambda d: d.update(assisted_deals=[99])), None,
                       "The assisted deals must be deal numbers from 1 to 1.",
                       "Le smazzate con aiuto devono essere numeri da 1 a 1."),
    "rules differ": (_state(lambda s: s["rules"].update(napola=True)), None,
                     "The rules of the saved position differ from the rules of the match.",
                     "Le regole della posizione salvata sono diverse da quelle della partita."),
    "seed differs": (_changed(lambda d: d.update(seed=d["seed"] + 1)), None,
                     "The seed of the saved position differs from the seed of the match.",
                     "La mescolata della posizione salvata è diversa da quella della partita."),
    # The moves
    "moves": (_changed(lambda d: d.update(moves={})), None, "The moves must be a list.",
              "Le mosse devono essere un elenco."),
    "move fields": (_changed(lambda d: d["moves"][0].pop("seat")), None,
                    "Move 1 must have exactly a deal, a seat, a card and a capture.",
                    "La mossa 1 deve avere solo smazzata, giocatore, carta e presa."),
    "move numbers": (_changed(lambda d: d["moves"][0].update(deal="1")), None,
                     "In move 1, deal and seat must be whole numbers.",
                     "Nella mossa 1 smazzata e giocatore devono essere numeri interi."),
    "move deal range": (_changed(lambda d: d["moves"][2].update(deal=10 ** 4000)), None,
                        "In move 3, the deal or the seat is a number this match cannot have.",
                        "Nella mossa 3 la smazzata o il giocatore hanno un numero che questa partita non può avere."),
    "move seat range": (_changed(lambda d: d["moves"][2].update(seat=2)), None,
                        "In move 3, the deal or the seat is a number this match cannot have.",
                        "Nella mossa 3 la smazzata o il giocatore hanno un numero che questa partita non può avere."),
    "move card text": (_changed(lambda d: d["moves"][0].update(card=7)), None,
                       "In move 1, the card played and the cards it takes must be written as text.",
                       "Nella mossa 1 la carta giocata e quelle prese vanno scritte come testo."),
    "move card": (_changed(lambda d: d["moves"][0].update(card="8D")), None,
                  "Move 1 names a card that does not exist.", "La mossa 1 indica una carta che non esiste."),
    "move long text": (_changed(lambda d: d["moves"][3].update(capture=["(7D: " + "y" * 3000 + ")"])), None,
                       "Move 4 names a card that does not exist.", "La mossa 4 indica una carta che non esiste."),
    "move card twice": (_changed(lambda d: d["moves"][2].update(capture=["AD", "AD", "3C"])), None,
                        "Move 3 names the same card twice.", "La mossa 3 indica due volte la stessa carta."),
    "move seat": (_changed(lambda d: d["moves"][0].update(seat=1)), None,
                  "Move 1 is marked for seat 2, but it is seat 1 to play.",
                  "La mossa 1 è segnata per il giocatore 2, ma tocca al giocatore 1."),
    "move deal": (_changed(lambda d: d["moves"][0].update(deal=3)), None,
                  "Move 1 is marked for deal 3, but deal 1 is being played.",
                  "La mossa 1 è segnata per la smazzata 3, ma la smazzata 1 è ancora in corso."),
    "illegal move": (_changed(lambda d: d["moves"][2].update(capture=[])), "must_capture",
                     "Move 3 is not allowed. The four of clubs must capture. A card that can take must take.",
                     ("La mossa 3 non è ammessa. Il quattro di fiori deve prendere. Una carta che può prendere deve "
                      "farlo.")),
    "different position": (_state(lambda s: s["stock"].insert(0, s["stock"].pop(1))), None,
                           "The moves do not lead to the saved position, which differs in the order of the stock.",
                           "Le mosse non portano alla posizione salvata, che differisce per l'ordine del mazzo."),
    # The saved position, as the engine checks it
    "state": (_changed(lambda d: d.update(state=[])), None, "The saved position must be a set of named fields.",
              "La posizione salvata deve essere un elenco di campi con nome."),
    "position missing field": (_state(lambda s: s.pop("stock")), "missing_field",
                               "The saved position is not valid. One field is missing, the order of the stock.",
                               "La posizione salvata non è valida. Manca un campo, l'ordine del mazzo."),
    "position seed": (_state(lambda s: s.update(seed="9")), "seed",
                      "The saved position is not valid. The seed must be a whole number or sixty four hex digits.",
                      ("La posizione salvata non è valida. Il numero della mescolata deve essere un numero intero o di "
                      "sessantaquattro cifre esadecimali.")),
    "position phase": (_state(lambda s: s.update(phase="half_time")), "phase",
                       "The saved position is not valid. The phase of the game is not one that scopa knows.",
                       "La posizione salvata non è valida. La fase del gioco non è una di quelle che scopa conosce."),
    "position history list": (_state(lambda s: s.update(history={})), "history_list",
                              "The saved position is not valid. The plays of this deal must be a list.",
                              ("La posizione salvata non è valida. Le giocate di questa smazzata devono essere un "
                               "elenco.")),
    "position deal totals list": (_state(lambda s: s.update(deal_totals=0)), "deal_totals_list",
                                  "The saved position is not valid. The deal results must be a list.",
                                  ("La posizione salvata non è valida. I risultati delle smazzate devono essere un "
                                   "elenco.")),
    "position deal number": (_state(lambda s: s.update(deal_number=0)), "number",
                             "The saved position is not valid. The deal number must be a whole number from 1 to 10000.",
                             ("La posizione salvata non è valida. Per il numero della smazzata serve un numero intero "
                              "da 1 a 10000.")),
    "position dealer": (_state(lambda s: s.update(dealer=2)), "seat",
                        "The saved position is not valid. The dealer must be one of the 2 seats.",
                        "La posizione salvata non è valida. Il mazziere deve essere uno dei 2 giocatori."),
    "position to move": (_state(lambda s: s.update(to_move=7)), "seat",
                         "The saved position is not valid. The seat to move must be one of the 2 seats.",
                         "La posizione salvata non è valida. Chi deve giocare deve essere uno dei 2 giocatori."),
    "position last capture seat": (_state(lambda s: s.update(last_capturer=-1)), "seat",
                                   ("The saved position is not valid. The last capture must belong to one of the 2 "
                                    "seats."),
                                   ("La posizione salvata non è valida. L'ultima presa deve essere di uno dei 2 "
                                    "giocatori.")),
    "position winner side": (_state(lambda s: s.update(winner=2)), "winner",
                             "The saved position is not valid. The winner must be one of the 2 players or pairs.",
                             ("La posizione salvata non è valida. Il vincitore deve essere tra i 2 giocatori o "
                              "coppie.")),
    "position hands count": (_state(lambda s: s["hands"].pop()), "hands_count",
                             "The saved position is not valid. There must be 2 hands, one for each player.",
                             "La posizione salvata non è valida. Le mani devono essere 2, una per giocatore."),
    "position piles count": (_state(lambda s: s.update(piles=[])), "piles_count",
                             ("The saved position is not valid. There must be 2 piles of captured cards, one for each "
                              "player or pair."),
                             ("La posizione salvata non è valida. I mucchi delle prese devono essere 2, uno per "
                              "giocatore o coppia.")),
    "position hand not cards": (_state(lambda s: s["hands"].__setitem__(1, "JH QH")), "not_cards",
                                "The saved position is not valid. Hand 2 is not a list of cards.",
                                "La posizione salvata non è valida. La mano 2 non è un elenco di carte."),
    "position table not cards": (_state(lambda s: s["table"].append(7)), "not_cards",
                                 "The saved position is not valid. The table is not a list of cards.",
                                 "La posizione salvata non è valida. Il tavolo non è un elenco di carte."),
    "position stock not cards": (_state(lambda s: s.update(stock="KC 3S")), "not_cards",
                                 "The saved position is not valid. The stock is not a list of cards.",
                                 "La posizione salvata non è valida. Il mazzo non è un elenco di carte."),
    "position pile not cards": (_state(lambda s: s["piles"].__setitem__(0, None)), "not_cards",
                                "The saved position is not valid. Pile 1 is not a list of cards.",
                                ("La posizione salvata non è valida. Il mucchio delle prese 1 non è un elenco di "
                                 "carte.")),
    "position play card not a card": (_state(_play(1, card=3)), "not_cards",
                                      ("The saved position is not valid. The card of play 1 of this deal is not "
                                       "written as a card."),
                                      ("La posizione salvata non è valida. La carta della giocata 1 di questa smazzata "
                                       "non è scritta come una carta.")),
    "position play capture not cards": (_state(_play(3, capture="AD 3C")), "not_cards",
                                        ("The saved position is not valid. The cards taken in play 3 of this deal are "
                                         "not a list of cards."),
                                        ("La posizione salvata non è valida. Le carte prese nella giocata 3 di questa "
                                         "smazzata non sono un elenco di carte.")),
    "position hand no such card": (_state(lambda s: s["hands"][1].__setitem__(0, "8H")), "no_such_card",
                                   "The saved position is not valid. Hand 2 names a card that does not exist.",
                                   "La posizione salvata non è valida. La mano 2 indica una carta che non esiste."),
    "position table no such card": (_state(lambda s: s["table"].__setitem__(0, "10D")), "no_such_card",
                                    "The saved position is not valid. The table names a card that does not exist.",
                                    "La posizione salvata non è valida. Il tavolo indica una carta che non esiste."),
    "position stock no such card": (_state(lambda s: s["stock"].__setitem__(0, "(" + "z" * 4000 + ")")),
                                    "no_such_card",
                                    "The saved position is not valid. The stock names a card that does not exist.",
                                    "La posizione salvata non è valida. Il mazzo indica una carta che non esiste."),
    "position pile no such card": (_state(lambda s: s["piles"][1].__setitem__(0, "1X")), "no_such_card",
                                   "The saved position is not valid. Pile 2 names a card that does not exist.",
                                   ("La posizione salvata non è valida. Il mucchio delle prese 2 indica una carta che "
                                    "non esiste.")),
    "position play no such card": (_state(_play(1, card="9C")), "no_such_card",
                                   ("The saved position is not valid. Play 1 of this deal names a card that does not "
                                    "exist."),
                                   ("La posizione salvata non è valida. La giocata 1 di questa smazzata indica una "
                                    "carta che non esiste.")),
    "position capture no such card": (_state(_play(3, capture=["AD", "8S"])), "no_such_card",
                                      ("The saved position is not valid. Play 3 of this deal names a card that does "
                                       "not exist."),
                                      ("La posizione salvata non è valida. La giocata 3 di questa smazzata indica una "
                                       "carta che non esiste.")),
    "position scope": (_state(lambda s: s.update(scope=[0])), "numbers",
                       "The saved position is not valid. The count of scope must be a list of 2 whole numbers.",
                       "La posizione salvata non è valida. Per il numero di scope servono 2 numeri interi."),
    "position match scores": (_state(lambda s: s.update(match_scores=[0, -1])), "numbers",
                              "The saved position is not valid. The match scores must be a list of 2 whole numbers.",
                              ("La posizione salvata non è valida. Per i punteggi della partita servono 2 numeri "
                               "interi.")),
    "position deal total": (_state(lambda s: s.update(deal_totals=[[0]])), "deal_total",
                            "The saved position is not valid. Deal result 1 must be a list of 2 whole numbers.",
                            ("La posizione salvata non è valida. Per il risultato della smazzata 1 servono 2 numeri "
                             "interi.")),
    "position play fields": (_state(lambda s: s["history"][0].pop("scopa")), "play_fields",
                             ("The saved position is not valid. Play 1 of this deal must have a seat, a card, a "
                              "capture and a scopa mark."),
                             ("La posizione salvata non è valida. La giocata 1 di questa smazzata deve avere "
                              "giocatore, carta, presa e segno di scopa.")),
    "position play seat": (_state(_play(2, seat=4)), "play_seat",
                           ("The saved position is not valid. In play 2 of this deal, the seat must be one of the 2 "
                            "seats."),
                           ("La posizione salvata non è valida. Nella giocata 2 di questa smazzata il giocatore deve "
                            "essere uno dei 2 giocatori.")),
    "position claim": (_state(lambda s: s.update(claims=[{"seat": 0, "round": 1, "kind": "cirulla",
                                                           "cards": ["AD", "2D", "3D"]}])), "claim_wrong",
                       "The saved position is not valid. Claim 1 of this deal does not match the hands and plays.",
                       ("La posizione salvata non è valida. La dichiarazione 1 di questa smazzata non corrisponde "
                       "alle mani e alle giocate.")),
    "position play scopa": (_state(_play(2, scopa="no")), "play_scopa",
                            ("The saved position is not valid. In play 2 of this deal, the scopa mark must be true or "
                             "false."),
                            ("La posizione salvata non è valida. Nella giocata 2 di questa smazzata il segno di scopa "
                             "deve essere vero o falso.")),
    "position pack count": (_state(lambda s: s["stock"].pop()), "pack_count",
                            ("The saved position is not valid. The cards do not make a whole pack. The number of cards "
                             "in the position is 39, not 40."),
                            ("La posizione salvata non è valida. Le carte non formano un mazzo completo. Il numero di "
                             "carte nella posizione è 39, non 40.")),
    "position pack repeated": (_state(lambda s: s["stock"].__setitem__(0, s["stock"][1])), "pack_repeated",
                               ("The saved position is not valid. The cards do not make one pack. At least one card "
                                "appears more than once."),
                               ("La posizione salvata non è valida. Le carte non formano un solo mazzo. Almeno una "
                                "carta compare più di una volta.")),
    "position stock size": (_state(lambda s: _move_card(s, "stock", "table")), "stock_size",
                            "The saved position is not valid. In round 4, the stock should hold 12 cards, not 11.",
                            "La posizione salvata non è valida. Nel giro 4 il mazzo dovrebbe avere 12 carte, non 11."),
    "position history length": (_state(lambda s: s["history"].pop()), "history_length",
                                ("The saved position is not valid. The number of plays in this deal should be 20, not "
                                 "19."),
                                ("La posizione salvata non è valida. Il numero di giocate di questa smazzata dovrebbe "
                                 "essere 20, non 19.")),
    "position hand size": (_state(lambda s: _move_card(s, "hands.0", "hands.1")), "hand_size",
                           ("The saved position is not valid. The number of cards in the hand of seat 1 should be 2, "
                            "not 1."),
                           ("La posizione salvata non è valida. Il numero di carte in mano al giocatore 1 dovrebbe "
                            "essere 2, non 1.")),
    "position to move order": (_state(lambda s: s.update(to_move=1)), "to_move",
                               "The saved position is not valid. It should be seat 1 to play, not seat 2.",
                               ("La posizione salvata non è valida. Dovrebbe toccare al giocatore 1, non al "
                                "giocatore 2.")),
    "position no cards in hand": (_state(_no_cards_in_hand, turns=18), "playing_no_cards",
                                  ("The saved position is not valid. Every hand is empty, yet the deal is marked as "
                                   "still being played."),
                                  ("La posizione salvata non è valida. Tutte le mani sono vuote, ma la smazzata "
                                   "risulta ancora in corso.")),
    "position winner": (_state(lambda s: s.update(winner=0)), "winner_while_playing",
                        "The saved position is not valid. A winner is recorded while the deal is still being played.",
                        ("La posizione salvata non è valida. È indicato un vincitore mentre la smazzata è ancora in "
                         "corso.")),
    "position over with cards": (_state(lambda s: s.update(phase="deal_over")), "over_with_cards",
                                 ("The saved position is not valid. The deal is marked over, yet cards are still in "
                                  "hand or in the stock."),
                                 ("La posizione salvata non è valida. La smazzata risulta finita, ma ci sono ancora "
                                  "carte in mano o nel mazzo.")),
    "position leftovers": (_state(_leftovers_kept, turns=36, seed=5), "leftovers",
                           ("The saved position is not valid. The deal is over, yet the cards left on the table were "
                            "not given to the last capture."),
                           ("La posizione salvata non è valida. La smazzata è finita, ma le carte rimaste in tavola "
                            "non sono andate a chi ha fatto l'ultima presa.")),
    "position deal results": (_state(lambda s: s.update(deal_number=2)), "deal_results_count",
                              ("The saved position is not valid. The number of deal results does not match the deal "
                               "number."),
                              ("La posizione salvata non è valida. Il numero dei risultati delle smazzate non "
                               "corrisponde al numero della smazzata.")),
    "position scores sum": (_state(lambda s: s.update(match_scores=[1, 0])), "scores_sum",
                            "The saved position is not valid. The match scores are not the sum of the deal results.",
                            ("La posizione salvata non è valida. I punteggi della partita non sono la somma dei "
                             "risultati delle smazzate.")),
    "position history order": (_state(_play(1, seat=1)), "history_order",
                               ("The saved position is not valid. The plays of this deal do not follow the order of "
                                "play."),
                               ("La posizione salvata non è valida. Le giocate di questa smazzata non seguono l'ordine "
                                "di gioco.")),
    "position history card": (_state(_play(1, card="KC")), "history_card",
                              ("The saved position is not valid. The plays of this deal include the king of clubs, "
                               "which is neither on the table nor in a pile."),
                              ("La posizione salvata non è valida. Le giocate di questa smazzata comprendono il re di "
                               "fiori, che non è né in tavola né tra le prese.")),
    "position no last capture": (_state(lambda s: s.update(last_capturer=None)), "no_last_capture",
                                 ("The saved position is not valid. The plays of this deal include captures, yet no "
                                  "last capture is recorded."),
                                 ("La posizione salvata non è valida. Le giocate di questa smazzata comprendono delle "
                                  "prese, ma l'ultima presa non è indicata.")),
    "position first table": (_state(_play(2, card="3C")), "first_table",
                             ("The saved position is not valid. By the plays of this deal, the number of cards on the "
                              "first table would be 5, not 4."),
                             ("La posizione salvata non è valida. Secondo le giocate di questa smazzata, il numero di "
                              "carte in tavola all'inizio sarebbe 5, non 4.")),
    "position play not legal": (_state(_play(3, capture=["AD", "3C", "5D"])), "play_not_legal",
                                ("The saved position is not valid. Play 3 of this deal is not a capture the rules "
                                 "allow."),
                                ("La posizione salvata non è valida. La giocata 3 di questa smazzata non è una presa "
                                 "ammessa.")),
    "position play had to capture": (_state(_play(3, capture=[])), "play_had_to_capture",
                                     ("The saved position is not valid. Play 3 of this deal leaves on the table a card "
                                      "that had to capture."),
                                     ("La posizione salvata non è valida. La giocata 3 di questa smazzata lascia in "
                                      "tavola una carta che doveva prendere.")),
    "position play scopa wrong": (_state(_play(1, scopa=True)), "play_scopa_wrong",
                                  "The saved position is not valid. Play 1 of this deal has the wrong scopa mark.",
                                  ("La posizione salvata non è valida. La giocata 1 di questa smazzata ha il segno di "
                                   "scopa sbagliato.")),
    "position last capture": (_state(lambda s: s.update(last_capturer=1)), "last_capture_differs",
                              ("The saved position is not valid. The last capture recorded is not the last capture in "
                               "the plays of this deal."),
                              ("La posizione salvata non è valida. L'ultima presa indicata non è l'ultima presa tra le "
                               "giocate di questa smazzata.")),
    "position table differs": (_state(lambda s: _move_card(s, "table", "piles.0")), "table_differs",
                               ("The saved position is not valid. The cards on the table do not match the plays of "
                                "this deal."),
                               ("La posizione salvata non è valida. Le carte in tavola non corrispondono alle giocate "
                                "di questa smazzata.")),
    "position piles differ": (_state(lambda s: _move_card(s, "piles.0", "piles.1")), "piles_differ",
                              ("The saved position is not valid. The piles of captured cards do not match the plays of "
                               "this deal."),
                              ("La posizione salvata non è valida. Le prese non corrispondono alle giocate di questa "
                               "smazzata.")),
    "position scope differ": (_state(lambda s: s.update(scope=[1, 0])), "scope_differ",
                              ("The saved position is not valid. The count of scope does not match the sweeps in the "
                               "plays of this deal."),
                              ("La posizione salvata non è valida. Il numero di scope non corrisponde alle giocate di "
                               "questa smazzata.")),
}


def _write(path: Path, content: Any) -> Path:
    if not isinstance(content, (str, bytes)):
        content = json.dumps(content)
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def _refused(path: Path) -> SaveFileError:
    with pytest.raises(SaveFileError) as caught:
        import_match(path)
    return caught.value


@pytest.mark.parametrize("name", CASES)
def test_every_refused_file_is_said_in_sentences_in_both_languages(tmp_path, name):
    make, code, english, italian = CASES[name]
    error = _refused(_write(tmp_path / "bad.json", make()))
    assert str(error) == EN_HEAD + english
    assert error.localised(IT) == IT_HEAD + italian
    assert (error.why.code if error.why is not None else None) == code  # the engine's reason, where it made the check
    for messages in (EN, IT):
        for naming in NAMINGS:
            line = error.localised(messages, naming)
            assert_spoken(line, messages.lang)
            assert len(line) < 300, line  # nothing long copied from the file


def test_the_engines_developer_message_is_kept_for_the_logs(tmp_path):
    error = _refused(_write(tmp_path / "bad.json", CASES["position pack count"][0]()))
    assert error.detail == "The cards do not make one 40-card pack: 39 distinct cards."
    error = _refused(_write(tmp_path / "bad.json", CASES["position history card"][0]()))
    assert error.detail == "The history plays KC, which is neither on the table nor in a pile."
    assert error.invalid == reason("history_card", card=Card.parse("KC")) and error.illegal is None
    assert error.with_heading("storage.heading.save_unreadable").why == error.why


def test_the_card_in_a_reason_is_named_in_the_players_names(tmp_path):
    error = _refused(_write(tmp_path / "bad.json", CASES["position history card"][0]()))
    assert error.localised(IT, "napoletane") == (
        "Importazione non riuscita. La posizione salvata non è valida. Le giocate di questa smazzata comprendono il re "
        "di bastoni, che non è né in tavola né tra le prese.")
    assert "include the re of batons, which" in error.localised(EN, "napoletane")


def test_nothing_from_the_file_is_said_back(tmp_path):
    for name, copied in (("unknown field", "xxxxx"), ("move long text", "yyyyy"),
                         ("position stock no such card", "zzzzz"), ("rules unknown option", "nonsense")):
        error = _refused(_write(tmp_path / "bad.json", CASES[name][0]()))
        for messages in (EN, IT):
            assert copied not in error.localised(messages), name


def test_a_long_capture_is_counted_not_read_out(tmp_path):
    """A move that takes more cards than any capture could is refused with the count of its cards."""
    record, data = _good_illegal(seed=9)
    for index, state in enumerate(states_of(record)):  # noqa: B007 -- both are read after the loop
        hand = state.hands[state.to_move]
        card = next((c for c, options in ((c, state.legal_moves()) for c in hand)
                     if any(m.card == c and len(m.capture) > 1 for m in options)
                     and not any(m.card == c and len(m.capture) == 1 for m in options)), None)
        if card is not None:
            break
    else:
        raise AssertionError("no position with a sum to take")
    capture = [str(c) for c in ALL_CARDS if c != card][:9]
    data["moves"] = [*data["moves"][:index],
                     {"deal": state.deal_number, "seat": state.to_move, "card": str(card), "capture": capture}]
    error = _refused(_write(tmp_path / "bad.json", data))
    assert error.illegal is not None and error.illegal.code == "cannot_take" and len(error.illegal.capture) == 9
    names = CardNames(EN)
    assert str(error) == (f"Import failed. Move {index + 1} is not allowed. "
                          f"{names.the(card).capitalize()} cannot take those 9 cards.")
    assert error.localised(IT).endswith(" non può prendere quelle 9 carte.")
    for messages in (EN, IT):
        assert_spoken(error.localised(messages), messages.lang)


@pytest.mark.parametrize("problem, english, italian", [
    (OSError(errno.EIO, "Input/output error"), "The file cannot be read. The disk could not be read or written.",
     "Il file non si può leggere. Il disco non si è potuto leggere o scrivere."),
    (OSError(errno.ELOOP, "Too many levels of symbolic links: 'x'"), "The file cannot be read.",
     "Il file non si può leggere."),
])
def test_a_file_the_system_cannot_read(tmp_path, monkeypatch, problem, english, italian):
    path = _write(tmp_path / "in.json", "{}")

    def refuse(*_: Any, **__: Any) -> Any:
        raise problem
    monkeypatch.setattr(files_module.os, "open", refuse)
    error = _refused(path)
    assert str(error) == EN_HEAD + english
    assert error.localised(IT) == IT_HEAD + italian
    assert error.detail == problem.strerror  # the system's own words, in its locale, for the logs only
    for messages in (EN, IT):
        assert_spoken(error.localised(messages), messages.lang)


# Reasons no file reaches (the storage checks come first) -----------------------------------

DIRECT = {
    reason("rules_not_options"): ("The rules must be a set of named options.",
                                  "Le regole devono essere un elenco di opzioni con nome."),
    reason("not_fields"): ("The saved position must be a set of named fields.",
                           "La posizione salvata deve essere un elenco di campi con nome."),
    reason("rules"): ("The rules of the saved position are not valid.",
                      "Le regole della posizione salvata non sono valide."),
}


def test_every_reason_the_engine_gives_is_said_somewhere_here():
    in_files = {code for _, code, _, _ in CASES.values()}
    assert set(RULES_CODES + POSITION_CODES) == (in_files - {None, "must_capture"}) | {r.code for r in DIRECT}


@pytest.mark.parametrize("why", DIRECT)
def test_the_reasons_no_file_reaches_are_said_too(why):
    english, italian = DIRECT[why]
    assert explain_invalid(why, CardNames(EN)) == english
    assert explain_invalid(why, CardNames(IT)) == italian


def test_an_unknown_reason_leaves_the_plain_sentence():
    assert explain_invalid(Reason("from_the_future"), CardNames(EN)) == ""
    error = SaveFileError("storage.reason.position", why=Reason("from_the_future"))
    assert str(error) == "The match cannot be loaded. The saved position is not valid."


def test_every_reason_code_has_its_sentences_in_both_languages():
    places = ("hand", "table", "stock", "pile", "play_card", "play_capture")
    for messages in (EN, IT):
        for code in RULES_CODES + POSITION_CODES:
            keys = ([f"invalid.{code}.{p}" for p in places] if code in ("not_cards", "no_such_card")
                    else [f"invalid.seat.{p}" for p in ("dealer", "to_move", "last_capturer")] if code == "seat"
                    else [f"invalid.{code}"])
            assert all(messages.has(key) for key in keys), code


def test_no_sentence_counts_seats_from_0():
    """Every other line says "seat 2" counting from 1; a refused file names how many seats there are."""
    for lang in ("en", "it"):
        catalogue = json.loads((Path(__file__).parents[1] / "src/scopa/narration/catalogues" / f"{lang}.json")
                               .read_text(encoding="utf-8"))
        for key, text in catalogue.items():
            if key.startswith(("storage.reason.", "invalid.")):
                assert not re.search(r"\b(from|da) 0\b", text), key


# Through the console and the command line ------------------------------------------------

SAMPLED = ("position pack count", "rules on or off", "move card", "position history card")


@pytest.mark.parametrize("name", CASES)
def test_the_console_import_says_each_reason_in_the_players_language(tmp_path, name):
    make, _, english, italian = CASES[name]
    path = _write(tmp_path / "bad.json", make())
    for messages, expected in ((EN, EN_HEAD + english), (IT, IT_HEAD + italian)):
        record, line = Persistence(tmp_path / "data", messages=lambda m=messages: m).import_match(str(path))
        assert record is None and line == expected


def test_the_in_game_import_command(tmp_path):
    for name in SAMPLED:
        make, _, english, italian = CASES[name]
        path = _write(tmp_path / f"{name.replace(' ', '_')}.json", make())
        for lang, expected in (("en", EN_HEAD + english), ("it", IT_HEAD + italian)):
            out = io.StringIO()
            program = Program(ScriptInput([f"import {path}"], out), Output(out), Settings(voice=False),
                              tmp_path / "config", Persistence(tmp_path / "data"),
                              speaker_factory=lambda on, voice: RecordingSpeaker(), lang=lang)
            program.run(request_for("--seed", "3"))
            assert expected in lines_of(out), (name, lang)


def test_scopa_import_on_the_command_line(tmp_path):
    for name in SAMPLED[:2]:
        make, _, english, italian = CASES[name]
        path = _write(tmp_path / "bad.json", make())
        base = [sys.executable, "-m", "scopa", "--no-voice", "--data-dir", str(tmp_path / "d"),
                "--config-dir", str(tmp_path / "c"), "--import", str(path)]
        for lang, expected in (("en", EN_HEAD + english), ("it", IT_HEAD + italian)):
            done = subprocess.run([*base, "--lang", lang], capture_output=True, text=True, timeout=60, input="",
                                  check=False)
            assert done.returncode == 1, done.stderr
            assert done.stdout.splitlines() == [expected]
    assert not (tmp_path / "d" / "autosave.json").exists()


def test_an_unreadable_autosave_says_why_in_sentences(tmp_path):
    make, _, english, italian = CASES["position hand size"]
    headings = ((EN, "The saved match cannot be read. "), (IT, "La partita salvata non si può leggere. "))
    for messages, heading in headings:
        _write(tmp_path / "autosave.json", make())
        persistence = Persistence(tmp_path, messages=lambda m=messages: m)
        assert persistence.saved_matches() == []
        [line] = persistence.notices()
        problem = line[:line.rindex(".", 0, line.rindex(" ")) + 1]  # then where the file is kept
        assert problem == heading + (english if messages is EN else italian)
        assert_spoken(problem, messages.lang)


def test_scopa_export_says_why_the_autosave_cannot_be_read_in_the_players_names(tmp_path):
    make, _, _, _ = CASES["position history card"]
    (tmp_path / "d").mkdir()
    _write(tmp_path / "d" / "autosave.json", make())
    done = subprocess.run([sys.executable, "-m", "scopa", "--data-dir", str(tmp_path / "d"), "--config-dir",
                           str(tmp_path / "c"), "--lang", "it", "--cards", "napoletane", "--export",
                           str(tmp_path / "out.json")], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    [line, none] = done.stderr.splitlines()
    assert line.startswith(
        "scopa: La partita salvata non si può leggere. La posizione salvata non è valida. Le giocate di questa "
        "smazzata comprendono il re di bastoni, che non è né in tavola né tra le prese. È stata messa da parte come ")
    assert none == "scopa: Non c'è una partita salvata da esportare."


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_damaged_file_is_refused_in_sentences(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    path = write_damaged_file(data, tmp_path_factory.getbasetemp() / "damaged_spoken.json")
    try:
        import_match(path)
    except SaveFileError as error:
        for messages in (EN, IT):
            for naming in NAMINGS:
                line = error.localised(messages, naming)
                assert_spoken(line, messages.lang)
                assert len(line) < 300, line
