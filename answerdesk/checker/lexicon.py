"""Known words and names for the real-word guard (issue 3; BG-R2, docs/checker.md "review").

Word frequencies come from ``wordfreq`` (bg, ru, en); country, language and city
names from CLDR through ``babel``. Both are loaded lazily, on first use, and kept.
"""

from __future__ import annotations

import math
import re
from functools import cache, lru_cache

from answerdesk.checker.morph import russian as _morph
from answerdesk.checker.normalize import normalize

LANGS = ("bg", "ru", "en")
#: a word at or above this Zipf frequency is a real word of its language
KNOWN_ZIPF = 1.5


@cache
def _freqs(lang: str) -> dict[str, float]:
    """wordfreq's word -> frequency dict of one language, kept here."""
    import wordfreq

    table = wordfreq.get_frequency_dict(lang)
    # wordfreq also keeps the list of lists it was built from: millions of strings in
    # lists the garbage collector would walk on every full collection (~0.1 s pauses)
    wordfreq.get_frequency_list.cache_clear()
    return table


@lru_cache(maxsize=131072)
def zipf(word: str, lang: str) -> float:
    """Zipf frequency of one normalised word in a language (0 when unknown)."""
    f = _freqs(lang).get(word)
    if not f:
        return 0.0
    return round(math.log10(f) + 9, 2)


@lru_cache(maxsize=1)
def _entities() -> dict[str, frozenset[str]]:
    """Normalised CLDR name -> ids of what it names ("T:AT" a territory, "L:de" a
    language, "Z:Europe/Vienna" a city), over bg, ru and en."""
    from babel import Locale

    ids: dict[str, set[str]] = {}

    def add(name: str, what: str) -> None:
        n = normalize(name)
        if n:
            ids.setdefault(n, set()).add(what)

    for code in LANGS:
        loc = Locale.parse(code)
        for tcode, name in loc.territories.items():
            add(name, f"T:{tcode}")
        for lcode, name in loc.languages.items():
            add(name, f"L:{lcode}")
        for zone, info in loc.time_zones.items():
            city = info.get("city") if hasattr(info, "get") else None
            if city:
                add(city, f"Z:{zone}")
    for name, what in _iso_names():
        add(name, what)
    for name, what in _endonyms():
        n = normalize(name)
        if n and ids.get(n, {what}) == {what}:
            add(name, what)
    # CLDR gives a country's other name in parentheses ("Мьянма (Бирма)", "Мианмар
    # (Бирма)", "Myanmar (Burma)"): the other name alone names it too, unless it is a
    # qualifier (an abbreviation, "Гонконг (САР)") or names something else ("Конго
    # (Киншаса)": the capital); a country of the past of that name is the same one
    # (ISO 3166-3 "Burma")
    for code in LANGS:
        for tcode, name in Locale.parse(code).territories.items():
            parts = re.fullmatch(r"(.+?)\s*\(([^()\s]+)\)", name)
            if not parts or parts.group(2).isupper():
                continue
            what = f"T:{tcode}"
            if {i for i in ids.get(normalize(parts.group(2)), ()) if i[:2] != "H:"} <= {what}:
                add(parts.group(1), what)
                add(parts.group(2), what)
    return {n: frozenset(v) for n, v in ids.items()}


def _endonyms() -> list[tuple[str, str]]:
    """Rule "endonym" (issue 30 class 5): a country's name in its own official languages,
    and the names of its time-zone cities in them (CLDR through ``babel``:
    ``get_official_languages`` and ``zone_territories``): "Deutschland" for Германия,
    "España" for Испания, "Polska" for Полша, "Wien" for Виена, "München" for Мюнхен,
    "Praha" for Прага. A name the bg/ru/en tables give another place keeps that place
    only (``_entities``)."""
    from babel import Locale
    from babel.core import UnknownLocaleError, get_global
    from babel.languages import get_official_languages

    zones: dict[str, list[str]] = {}
    for zone, territory in get_global("zone_territories").items():
        zones.setdefault(territory, []).append(zone)
    out: list[tuple[str, str]] = []
    for tcode in map(str, Locale.parse("en").territories):
        for lang in get_official_languages(tcode, de_facto=True):
            try:
                loc = Locale.parse(lang)
            except (UnknownLocaleError, ValueError):
                continue
            name = loc.territories.get(tcode)
            if name:
                out.append((name, f"T:{tcode}"))
            for zone in zones.get(tcode, ()):
                info = loc.time_zones.get(zone)
                city = info.get("city") if info else None
                if city:
                    out.append((city, f"Z:{zone}"))
    return out


def _iso_names() -> list[tuple[str, str]]:
    """Country names of ISO 3166-1 and -3 (``pycountry``, with the iso-codes translations) in
    bg, ru and en: the official long names CLDR leaves out ("Съединени американски
    щати", "Соединённые Штаты Америки", "Федеративная Республика Германия"), whose
    initials are the usual abbreviations (САЩ, США, ФРГ)."""
    import gettext

    import pycountry

    out: list[tuple[str, str]] = []
    tables = {"en": None} | {
        lang: gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=[lang],
                                  fallback=True)
        for lang in ("bg", "ru")
    }
    for country in pycountry.countries:
        what = f"T:{country.alpha_2}"
        for attr in ("name", "official_name", "common_name"):
            name = getattr(country, attr, None)
            if not name:
                continue
            for table in tables.values():
                out.append((table.gettext(name) if table else name, what))
    # ISO 3166-3, countries of the past: "USSR, Union of Soviet Socialist Republics" ->
    # СССР, Союз Советских Социалистических Республик; ГДР; Чехословакия, ЧССР
    old = {"en": None} | {
        lang: gettext.translation("iso3166-3", pycountry.LOCALES_DIR, languages=[lang],
                                  fallback=True)
        for lang in ("bg", "ru")
    }
    for country in pycountry.historic_countries:
        what = f"H:{country.alpha_4}"
        for table in old.values():
            name = table.gettext(country.name) if table else country.name
            out.extend((part, what) for part in name.split(", ") if "(" not in part)
    return out


#: words an abbreviation skips: "United States of America" is USA, "Организация на
#: обединените нации" is ООН, "Bundesrepublik Deutschland" ... (and, of, the, de, на,
#: и, за, von, der)
FUNCTION_WORDS = frozenset(
    ("of", "the", "and", "de", "du", "la", "von", "der", "und", "на", "и", "за", "в", "во",
     "до", "от", "по")
)


def initials(norm: str) -> tuple[str, ...]:
    """Initials of a normalised text of two or more words: of all words and of the words
    that are not function words ("united states of america" -> "usoa", "usa")."""
    words = norm.split(" ")
    if len(words) < 2:
        return ()
    every = "".join(w[0] for w in words)
    content = "".join(w[0] for w in words if w not in FUNCTION_WORDS)
    return tuple(dict.fromkeys(x for x in (content, every) if len(x) >= 2))


@lru_cache(maxsize=1)
def _abbreviations() -> dict[str, frozenset[str]]:
    """Initials of every name of several words in ``_entities`` -> the ids it names, where
    they name one territory, language or city only (США, САЩ, USA, ООН, UN, ФРГ, ОАЭ):
    an abbreviation that two names share says nothing."""
    ids: dict[str, set[str]] = {}
    for name, what in _entities().items():
        for ab in initials(name):
            ids.setdefault(ab, set()).update(what)
    return {ab: frozenset(v) for ab, v in ids.items() if len(v) == 1}


@lru_cache(maxsize=1)
def entity_names() -> frozenset[str]:
    """Normalised CLDR names of territories, languages and cities in bg, ru and en."""
    return frozenset(_entities())


def same_entity(a: str, b: str) -> bool:
    """True when two normalised names name one territory, language or city (CLDR, ISO
    3166), e.g. the Bulgarian and the Russian name of a country, or a name and its
    abbreviation in any of the three languages (САЩ, США, USA; ООН, UN)."""
    table, abbr = _entities(), _abbreviations()
    x = table.get(a) or abbr.get(a)
    y = table.get(b) or abbr.get(b)
    return bool(x and y and x & y)


@lru_cache(maxsize=1)
def world_names() -> dict[str, str]:
    """Rule "a country's name in any language" (issue 30 class 5, eleventh pass): the
    name CLDR gives a country in each of its languages (every base locale of ``babel``)
    in Latin letters -> the country's id, where the name names one
    country only and the bg/ru/en tables (``_entities``) give it nothing else: "Misr"
    (Uzbek) for Египет, "Niemcy" (Polish) for Германия, "Hellas" (Norwegian) for
    Гърция, "Suomi" for Финляндия. Not the Cyrillic names of the other Cyrillic
    languages: they fall on Bulgarian and Russian words ("Франц", "Бразилиа", the
    city, are the country in some of them). Loaded on the first check that needs it (a second,
    ``preload`` does it at start-up)."""
    from babel import localedata

    seen: dict[str, set[str]] = {}
    for code in localedata.locale_identifiers():
        if "_" in code:
            continue
        for tcode, name in localedata.load(code, merge_inherited=False).get(
            "territories", {}
        ).items():
            n = normalize(name)
            if len(tcode) == 2 and tcode.isalpha() and n.isascii() and n:
                seen.setdefault(n, set()).add(f"T:{tcode}")
    table = _entities()
    return {
        n: next(iter(v)) for n, v in seen.items()
        if len(v) == 1 and table.get(n, v) == v
    }


def world_name_of(given: str, key: str) -> bool:
    """True when ``given`` is a country's name in some language of CLDR and ``key`` a
    bg/ru/en name of that country (``world_names``)."""
    ids = _entities().get(key)
    if not ids or given in _entities():
        return False
    return world_names().get(given) in ids


@lru_cache(maxsize=65536)
def nominative(word: str) -> bool:
    """True when a reading the Russian dictionary (pymorphy3) knows of ``word`` is in the
    nominative, or the dictionary does not know it (a Bulgarian word has no cases)."""
    if not is_cyrillic_word(word) or not russian_dictionary_word(word):
        return True
    return any(p.tag.case == "nomn" for p in _morph().parse(word) if p.is_known)


#: a dictionary word whose every reading is an oblique case of a word rarer than this
#: (Zipf, ru) reads as a name: "лайбах" (of "лайба" 1.2), "акира", "мономах", "грейт";
#: not "крыс", "инков", "святым", "ацтеков" (of common words: the case forms a team
#: types for a key in a case; with them, SIGame's wrong answers sent to the host grew
#: by 60, without them by 11)
RARE_LEMMA_ZIPF = 2.0


@lru_cache(maxsize=65536)
def oblique_only(word: str) -> bool:
    """True when every reading the Russian dictionary (pymorphy3) knows of ``word`` is
    an oblique case of a rare word (no nominative, no word without case): "лайбах"
    (Laibach; to the dictionary the locative plural of "лайба"), "акира" (Akira), "мономах"
    (Мономах). A quiz answer is given in the nominative, so such a word is more likely a
    foreign name spelt like a case form than that word."""
    if not is_cyrillic_word(word) or not russian_dictionary_word(word):
        return False
    known = [p for p in _morph().parse(word) if p.is_known]
    return bool(known) and all(
        p.tag.case not in (None, "nomn") and zipf(p.normal_form, "ru") < RARE_LEMMA_ZIPF
        for p in known
    )


def langs_for(script: str, low: str, words: tuple[str, ...]) -> tuple[str, ...]:
    """Languages whose word lists apply to a text: English for Latin; for Cyrillic,
    Russian or Bulgarian by their own letters (ы э ё / ъ before a consonant), else by
    which language's word list knows the words, else both."""
    if script == "lat":
        return ("en",)
    if script == "none":
        return ()
    ru = bool(re.search(r"[ыэё]", low))
    bg = bool(re.search(r"ъ[бвгджзклмнпрстфхцчшщ]|[^\W\d_]ът\b", low))
    if ru != bg:
        return ("ru",) if ru else ("bg",)
    content = [w for w in words if len(w) >= 3 and w.isalpha()]
    zru = sum(zipf(w, "ru") for w in content)
    zbg = sum(zipf(w, "bg") for w in content)
    if zru > zbg + LANG_MARGIN:
        return ("ru",)
    if zbg > zru + LANG_MARGIN:
        return ("bg",)
    return ("bg", "ru")


LANG_MARGIN = 1.0


@lru_cache(maxsize=65536)
def known_word(word: str, langs: tuple[str, ...], threshold: float = KNOWN_ZIPF) -> bool:
    """True when ``word`` is a common word of one of ``langs`` or a known name (CLDR)."""
    if word in entity_names():
        return True
    return any(zipf(word, lang) >= threshold for lang in langs)


#: pymorphy3 tags of names: first names, surnames, patronymics, places, organisations,
#: trademarks
_PROPER_TAGS = frozenset(("Name", "Surn", "Patr", "Geox", "Orgn", "Trad"))


@lru_cache(maxsize=65536)
def common_russian_word(word: str) -> bool:
    """True when the Russian dictionary (pymorphy3, OpenCorpora) knows ``word`` and no
    reading of it is a name, surname, place, organisation or trademark: "досужий",
    "виснуть", "пинетки", "грибница" are words, however rare; "Пушкин", "Орлов",
    "Волга", "Марс" may be names."""
    if not word or not is_cyrillic_word(word):
        return False
    morph = _morph()
    if not morph.word_is_known(word):
        return False
    return not any(
        _PROPER_TAGS & set(p.tag.grammemes) for p in morph.parse(word) if p.is_known
    )


@lru_cache(maxsize=65536)
def russian_dictionary_word(word: str) -> bool:
    """True when the Russian dictionary (pymorphy3, OpenCorpora) knows ``word`` in any
    reading, a name's included."""
    return bool(word) and _morph().word_is_known(word)


@lru_cache(maxsize=4096)
def russian_word_not_abbreviation(word: str) -> bool:
    """True when the Russian dictionary knows ``word`` and no reading of it is an
    abbreviation: "мир", "кот", "лес", "Ира" are words that may spell a key's initials
    by chance; "сша", "мгу", "вуз", "гаи" are read as abbreviations (tag Abbr)."""
    if not is_cyrillic_word(word) or not russian_dictionary_word(word):
        return False
    return not any("Abbr" in p.tag.grammemes for p in _morph().parse(word) if p.is_known)


def is_cyrillic_word(word: str) -> bool:
    """True for a word of Cyrillic letters only."""
    return all("\u0400" <= ch <= "\u04ff" for ch in word)



@lru_cache(maxsize=65536)
def russian_lemmas(word: str) -> frozenset[str]:
    """The dictionary forms of every reading the Russian dictionary (pymorphy3) knows of
    ``word`` (empty when it does not know the word): "спартака" -> спартак,
    "колокола" -> колокол; "милано" -> милано, not милан."""
    if not is_cyrillic_word(word) or not russian_dictionary_word(word):
        return frozenset()
    return frozenset(p.normal_form.replace("ё", "е") for p in _morph().parse(word) if p.is_known)


@lru_cache(maxsize=65536)
def plurale_tantum(word: str) -> bool:
    """True when a reading of ``word`` is a plural-only noun in the nominative (pymorphy3
    tags Pltm, nomn; the dictionary also reads "романов" as "of the Романовы"): a
    thing of its own beside its singular look-alike ("часы"/"час", "очки"/"очко",
    "духи"/"дух", "весы"/"вес") or a family ("Романовы", "Карамазовы", "Пушкины")."""
    if not is_cyrillic_word(word) or not russian_dictionary_word(word):
        return False
    return any(
        {"Pltm", "nomn"} <= p.tag.grammemes for p in _morph().parse(word) if p.is_known
    )


@lru_cache(maxsize=65536)
def russian_nouns(word: str) -> bool:
    """True when a reading of ``word`` in the Russian dictionary (pymorphy3) is a common
    noun (tag NOUN, no name tag): "баня", "сауна", "вилка"; not "Марс", not "быстро"."""
    if not is_cyrillic_word(word) or not russian_dictionary_word(word):
        return False
    return any(
        "NOUN" in p.tag.grammemes and not _PROPER_TAGS & p.tag.grammemes
        for p in _morph().parse(word) if p.is_known
    )


@lru_cache(maxsize=65536)
def russian_forms(word: str) -> frozenset[str]:
    """Every form of every reading the Russian dictionary (pymorphy3) knows of ``word``
    (empty when it does not know the word): "бразилия" -> бразилии, бразилию, ...;
    never "бразилиа", the city."""
    if not is_cyrillic_word(word) or not russian_dictionary_word(word):
        return frozenset()
    return frozenset(
        f.word.replace("ё", "е") for p in _morph().parse(word) if p.is_known for f in p.lexeme
    )


@lru_cache(maxsize=65536)
def case_readings(key_word: str, given_word: str) -> frozenset[str]:
    """The cases in which the Russian dictionary (pymorphy3) reads ``given_word`` as a
    form of ``key_word``'s own word, in its number and gender (empty when none):
    "дочку" of "дочка" -> {accs}, "капитанской" of "капитанская" -> {gent, datv, ablt,
    loct}; "ворот" of "ворота" (another number) and "первая" of "первый" (another
    gender) -> {}."""
    if not (is_cyrillic_word(key_word) and is_cyrillic_word(given_word)
            and russian_dictionary_word(key_word) and russian_dictionary_word(given_word)):
        return frozenset()
    morph = _morph()
    own = {(p.normal_form, p.tag.POS, p.tag.number, p.tag.gender)
           for p in morph.parse(key_word) if p.is_known and p.tag.case == "nomn"}
    return frozenset(
        str(p.tag.case) for p in morph.parse(given_word)
        if p.is_known and (p.normal_form, p.tag.POS, p.tag.number, p.tag.gender) in own
    )


#: the parts of speech of ``russian_parts`` (pymorphy3 tags; participles and short forms
#: read as adjectives, gerunds and infinitives as verbs)
_POS = {"NOUN": "NOUN", "ADJF": "ADJ", "ADJS": "ADJ", "PRTF": "ADJ", "PRTS": "ADJ",
        "VERB": "VERB", "INFN": "VERB", "GRND": "VERB", "ADVB": "ADVB", "NUMR": "NUMR"}


@lru_cache(maxsize=65536)
def russian_parts(word: str) -> frozenset[str]:
    """Parts of speech the Russian dictionary (pymorphy3) reads ``word`` as, with "NAME"
    for a reading as a name, surname, place or organisation (``_PROPER_TAGS``); empty
    for a word it does not know."""
    if not is_cyrillic_word(word) or not russian_dictionary_word(word):
        return frozenset()
    out: set[str] = set()
    for p in _morph().parse(word):
        if not p.is_known:
            continue
        if _PROPER_TAGS & p.tag.grammemes:
            out.add("NAME")
        elif p.tag.POS in _POS:
            out.add(_POS[p.tag.POS])
    return frozenset(out)


@lru_cache(maxsize=65536)
def first_name(word: str) -> bool:
    """True when a reading of ``word`` in the Russian dictionary (pymorphy3) is a first
    name or a patronymic (tags Name, Patr): "николай", "пётр", "петрович"; many people
    share it, so it names no one by itself."""
    if not is_cyrillic_word(word) or not russian_dictionary_word(word):
        return False
    return any({"Name", "Patr"} & p.tag.grammemes for p in _morph().parse(word) if p.is_known)


#: pymorphy3's name tags grouped by the kind of thing they name
_NAME_KINDS = {"Name": "person", "Surn": "person", "Patr": "person", "Geox": "place",
               "Orgn": "organisation", "Trad": "trademark"}


@lru_cache(maxsize=65536)
def name_kinds(word: str) -> frozenset[str]:
    """The kinds of thing (person, place, organisation, trademark) the Russian dictionary
    (pymorphy3) knows ``word`` as a name of; empty for a word it does not know or knows
    only as a common word: "уэллс" -> person, "уэльс" -> place, "канн" -> place."""
    if not is_cyrillic_word(word) or not russian_dictionary_word(word):
        return frozenset()
    return frozenset(
        _NAME_KINDS[g] for p in _morph().parse(word) if p.is_known
        for g in p.tag.grammemes if g in _NAME_KINDS
    )


@lru_cache(maxsize=65536)
def oblique_link(key_word: str, given_word: str) -> bool:
    """True when the Russian dictionary (pymorphy3) links ``key_word`` to ``given_word``
    only as an oblique case of the noun ``given_word`` is the dictionary form of, while
    ``key_word`` is also a nominative of its own: "вольта" is "of the volt" and Volta,
    "франция" is "of francium" and France; "спартака" (no nominative of its own) and
    "бразилии" (``given_word`` no dictionary form) are not."""
    if not (is_cyrillic_word(key_word) and russian_dictionary_word(key_word)
            and is_cyrillic_word(given_word) and russian_dictionary_word(given_word)):
        return False
    morph = _morph()
    lemmas = {p.normal_form for p in morph.parse(given_word)
              if p.is_known and "nomn" in p.tag.grammemes and p.normal_form == given_word}
    if not lemmas:
        return False
    key_parses = [p for p in morph.parse(key_word) if p.is_known]
    linked = [p for p in key_parses if p.normal_form in lemmas]
    own = [p for p in key_parses if p.normal_form not in lemmas and "nomn" in p.tag.grammemes]
    return bool(linked and own) and not any("nomn" in p.tag.grammemes for p in linked)
