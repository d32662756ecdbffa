"""Issue 30: judge like the jury on answers never seen (docs/checker.md, rule names cited).

Examples are made up for the classes of the issue, not taken from a corpus.
"""

from __future__ import annotations

import pytest

from answerdesk.checker import check


def outcome(given: str, key: list[str], mode: str) -> tuple[str, str]:
    v = check(given, key, mode)
    return v.outcome, v.code


# ------------------------------------------------- class 8: look-alike letters (BG-R5.6)

@pytest.mark.parametrize(
    "given, key",
    [
        ("TAKCИ", "такси"),      # Latin T, A, K, C in a Cyrillic word
        ("KOMETA", "Комета"),    # every letter a Latin look-alike
        ("HACA", "НАСА"),
        ("Becна", "Весна"),
        ("Пapuж", "Париж"),     # hand-written twins inside a mixed word
    ],
)
def test_lookalike_letters_are_the_same_word_in_exact_mode(given: str, key: str) -> None:
    assert outcome(given, [key], "exact")[0] == "correct"
    assert outcome(given, [key], "typo3")[0] == "correct"


@pytest.mark.parametrize(
    "given, key",
    [("BBC", "ВВС"), ("coca", "Соса"), ("COM", "сом"), ("TOP", "тор")],
)
def test_lookalike_text_that_is_a_word_of_the_other_script_goes_to_review(
    given: str, key: str
) -> None:
    assert outcome(given, [key], "exact") == ("review", "other_script")


def test_lookalike_is_no_licence_for_other_letters() -> None:
    assert outcome("KOMETA", ["Ракета"], "exact")[0] == "wrong"
    assert outcome("puma", ["Рима"], "exact")[0] == "wrong"  # u, n, r only in mixed words


# ------------------------------------------------- class 4: real-word near misses

@pytest.mark.parametrize(
    "given, key",
    [
        ("Часы", "Час"),            # plural-only noun: another thing
        ("Очки", "Очко"),
        ("Весы", "Вес"),
        ("Романовы", "Романов"),    # a family for one of its members
        ("Карамазов", "Карамазовы"),
        ("Пушкины", "Пушкин"),
    ],
)
def test_plural_only_word_or_family_is_not_auto_accepted(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "review"


@pytest.mark.parametrize(
    "given, key", [("Ковальски", "Ковальский"), ("Вишневски", "Вишневский")]
)
def test_polish_form_of_a_russian_surname_goes_to_review(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5") == ("review", "other_form")


@pytest.mark.parametrize(
    "given, key", [("Достоевски", "Достоевский"), ("Чайковски", "Чайковский")]
)
def test_bulgarian_form_of_a_famous_russian_surname_stays_accepted(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] == "correct"


@pytest.mark.parametrize(
    "given, key, expect",
    [
        ("Милан", "Милано", "review"),        # two dictionary names, not forms of one
        ("Спартака", "Спартак", "correct"),   # a case form of the club's name
        ("колокол", "колокола", "correct"),   # singular and plural of one thing
        ("маленькие", "маленький", "correct"),
    ],
)
def test_ending_changes_are_forms_only_when_the_dictionary_says_so(
    given: str, key: str, expect: str
) -> None:
    assert outcome(given, [key], "typo5")[0] == expect


@pytest.mark.parametrize(
    "given, key, expect",
    [
        ("MID", "МИД", "review"),         # an English word for a Cyrillic abbreviation
        ("DOT", "ДОТ", "review"),
        ("Paris", "Пари", "review"),      # an English word reached only with an error
        ("TASS", "ТАСС", "correct"),      # no English word: Latin typing (BG-R4.4)
        ("Boston", "Бостон", "correct"),  # the same name, no error
        ("Frost", "Фрост", "correct"),
    ],
)
def test_english_word_for_a_cyrillic_key(given: str, key: str, expect: str) -> None:
    assert outcome(given, [key], "typo5")[0] == expect


# ------------------------------------------------- class 2: numbers in words (BG-R5.4)

@pytest.mark.parametrize(
    "given, number",
    [
        ("семьсот сорок", 740), ("семисот сорока", 740),          # ru, any case
        ("двеста и петдесет", 250), ("седемстотин и четиресет", 740),  # bg, written/spoken
        ("two hundred and fifty", 250), ("one thousand nine hundred forty-four", 1944),
        ("двадцать первый", 21), ("двадесет и първи", 21), ("twenty-first", 21),  # ordinals
        ("пятёрка", 5), ("пятёрку", 5), ("петица", 5), ("дюжина", 12), ("трима", 3),
        ("1944 г.", 1944), ("1944 година", 1944), ("в 1944 году", 1944),
        ("хиляда деветстотин четиридесет и четвърта година", 1944),
        ("21-ви", 21), ("5th", 5), ("21-й", 21),
        ("MCMXLIV", 1944), ("XIV", 14),
        ("три миллиона", 3_000_000), ("две хиляди двайсет и четири", 2024),
    ],
)
def test_number_mode_reads_numbers_of_any_size(given: str, number: int) -> None:
    assert outcome(given, [number], "number")[0] == "correct"


@pytest.mark.parametrize(
    "given, number, expect",
    [
        ("семьсот сорок один", 740, "wrong"),   # another number
        ("пять шесть", 5, "review"),            # two numbers, not one
        ("один двадцать", 21, "review"),
        ("тысяча миллион", 1_001_000, "review"),
    ],
)
def test_number_words_that_make_no_one_number(given: str, number: int, expect: str) -> None:
    assert outcome(given, [number], "number")[0] == expect


@pytest.mark.parametrize(
    "given, key",
    [
        ("двадцать первый век", "XXI век"), ("Людовик Четырнадцатый", "Людовик XIV"),
        ("Тысяча и одна ночь", "1001 ночь"), ("Сто години самота", "100 години самота"),
        ("Двеста и петдесет", "250"), ("Деветнадесети век", "XIX век"),
    ],
)
def test_numbers_in_words_inside_text_answers(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "correct"


def test_oblique_case_alone_stays_a_word() -> None:
    # "сорока" is a magpie as often as "of forty": alone it is not read as 40
    assert outcome("Сорока", ["40"], "typo3")[0] == "wrong"


# ------------------------------------------------- class 3: a choice with its option's text

@pytest.mark.parametrize(
    "given, key, expect",
    [
        ("Б – Родопи", ["Б"], "correct"),             # the letter decides
        ("б) Родопи", ["Б"], "correct"),
        ("B. Rila", ["Б"], "correct"),
        ("В – Родопи", ["Б"], "wrong"),
        ("Б – Родопи", ["Б", "Родопи"], "correct"),
        ("Б - Родопы", ["Б", "Родопи"], "correct"),    # the text within typo3
        ("Б – Пирин", ["Б", "Родопи"], "review"),      # right letter, another text
        ("В – Родопи", ["Б", "Родопи"], "review"),     # right text, another letter
        ("В – Пирин", ["Б", "Родопи"], "wrong"),
        ("Родопи", ["Б", "Родопи"], "correct"),
        ("В Родопите", ["Б"], "review"),               # a preposition, not the letter В
        # rule "a fuller option text" (eighth pass)
        ("А — Христо Ботев", ["А", "Ботев"], "correct"),
        ("Б – Родопи планина", ["Б", "Родопи"], "correct"),
        ("б) река Дунав", ["Б", "Дунав"], "correct"),
        ("В – Родопи планина", ["Б", "Родопи"], "review"),  # the fuller text, another letter
    ],
)
def test_choice_with_option_text(given: str, key: list[str], expect: str) -> None:
    assert outcome(given, key, "choice")[0] == expect


# ------------------------------------------------- class 1: schools of transcription

@pytest.mark.parametrize(
    "given, key",
    [
        ("Мария", "Марья"), ("Наталия", "Наталья"), ("Илия", "Илья"),   # -ия/-ья
        ("Брут", "Брутус"), ("Ромул", "Ромулус"), ("Спартак", "Спартакус"),  # Latin -us
        ("Хари Потър", "Гарри Поттер"), ("Уилсон", "Вильсон"), ("Еврипид", "Эврипид"),
        # rule "Greek through Latin or from Greek" (eighth pass): ц/к, ф/т
        ("Цицерон", "Кикерон"), ("Тесей", "Фесей"),
    ],
)
def test_other_school_of_transcription_is_accepted(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] == "correct"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Джордж", "Георг"), ("Хъдсън", "Гудзон"), ("Гудзон", "Хъдсън"),
        ("Ахил", "Ахиллес"),
    ],
)
def test_unusual_school_of_transcription_goes_to_review_not_reject(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] == "review"


def test_two_words_do_not_meet_as_one_name() -> None:
    assert outcome("Гора", ["Хора"], "typo5")[0] != "correct"
    assert outcome("Вильям Шекспир", ["Уилям Шекспир"], "typo5")[0] == "correct"


# ------------------------------------------------- class 5 and 6: other names, other order

@pytest.mark.parametrize(
    "given, key",
    [
        ("Пётр Великий", "Пётр I"), ("Екатерина Великая", "Екатерина II"),
        ("Иван Грозный", "Иван IV"),
        ("Пётр Первый", "Пётр Великий"), ("Екатерина II", "Екатерина Великая"),
        ("Филипопол", "Пловдив"), ("Византион", "Константинопол"),   # no list knows them
    ],
)
def test_plausible_other_name_goes_to_review(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "other_name")


@pytest.mark.parametrize(
    "given, key",
    [("Пушкин", "Лермонтов"), ("Свадьба", "Похороны"), ("Пётр II", "Пётр I")],
)
def test_known_other_name_or_word_stays_wrong(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "wrong"


@pytest.mark.parametrize(
    "given, key",
    [("Езерото на лебедите", "Лебедово езеро"), ("Война миров", "Мировая война")],
)
def test_same_words_in_another_order_or_form_go_to_review(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "word_order")


# ------------------------------------------------- class 7: songs across scripts

_YELLOW = {"title": ["Yellow"], "artists": [["Coldplay"]]}
_RHAPSODY = {"title": ["Bohemian Rhapsody"], "artists": [["Queen"]]}


@pytest.mark.parametrize(
    "given, key, expect",
    [
        ("Cold Play - Yellow", _YELLOW, "correct"),        # a small typo in the performer
        ("Колдплей - Йелоу", _YELLOW, "correct"),          # Bulgarian spelling of both
        ("Coldplay Yellow", _YELLOW, "correct"),           # no separator
        ("Queen Bohemian Rhapsody", _RHAPSODY, "correct"),
        ("Куийн Бохемиън рапсоди", _RHAPSODY, "correct"),
        ("Coldplay Fix You", _YELLOW, "partial"),          # the performer only
        ("Yellow Submarine", _YELLOW, "review"),           # not split into a title
    ],
)
def test_songs_across_scripts_and_without_separator(given: str, key: dict, expect: str) -> None:
    assert outcome(given, key, "song")[0] == expect


@pytest.mark.parametrize(
    "given, key", [("Kowalska", "Kowalski"), ("Romanova", "Romanov"), ("Tolstaya", "Tolstoy")]
)
def test_other_gender_form_in_latin_letters_is_not_auto_accepted(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5") == ("review", "other_gender")


# ------------------------------------------------- the contract stays true

def test_docs_checker_md_names_every_reason_code() -> None:
    """docs/checker.md (the contract) lists every reason code a verdict may carry."""
    from pathlib import Path

    from answerdesk.checker.reasons import CATALOGUE

    doc = (Path(__file__).resolve().parents[2] / "docs" / "checker.md").read_text("utf-8")
    assert [code for code in CATALOGUE if f"`{code}`" not in doc] == []


# ------------------------------------------- third pass: review, never a false reject

@pytest.mark.parametrize(
    "given, key",
    [("баня", "Сауна"), ("лодка", "Ладья"), ("пурга", "Вьюга")],
)
def test_maybe_a_synonym_goes_to_review_not_wrong(given: str, key: str) -> None:
    """Rule "maybe a synonym": two common nouns within the review band, no thesaurus to
    tell them apart."""
    assert outcome(given, [key], "typo3") == ("review", "different_word")


def test_a_common_noun_for_a_name_is_no_synonym() -> None:
    assert outcome("сауна", ["Сочи"], "typo3")[0] == "wrong"


@pytest.mark.parametrize(
    "given, key",
    [("Толстая", "Толстой"), ("Белая", "Белый"), ("Горькая", "Горький")],
)
def test_adjective_surname_of_the_other_gender_is_not_accepted(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "other_gender")


@pytest.mark.parametrize(
    "given, key",
    [
        ("Джугашвили", "Иосиф Сталин"),       # birth name, known to the dictionary as a name
        ("Ульянов", "Ленин"),
        ("Сталинград", "Волгоград"),          # old place name
        ("Сердика", "София"),                 # Bulgarian: no Russian word
        ("сердика", "София"),                 # letter case is not read
        ("Reginald Dwight", "Elton John"),    # English birth name, capitalised
        ("Шарлеман", "Карл Велики"),          # a key of two capitalised words names someone
    ],
)
def test_name_words_make_a_plausible_other_name(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "other_name")


@pytest.mark.parametrize(
    "given, key",
    [
        ("Москва", "Пловдив"),     # a CLDR city other than the key's
        ("Пушкин", "Лермонтов"),   # better known than the key: not its rarer other name
    ],
)
def test_not_a_plausible_other_name_is_wrong(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "wrong"


@pytest.mark.parametrize(
    "given",
    ["Queen - Hotel California", "Blur - Wonderwall"],
)
def test_another_performer_in_a_song_is_not_an_alias(given: str) -> None:
    keys = {"Queen - Hotel California": {"title": ["Hotel California"], "artists": [["Eagles"]]},
            "Blur - Wonderwall": {"title": ["Wonderwall"], "artists": [["Oasis"]]}}
    assert check(given, keys[given], "song").outcome == "partial"


@pytest.mark.parametrize(
    "given, key, expect",
    [("c) Jupiter", "C", "correct"), ("C", "В", "correct"), ("с", "C", "correct"),
     ("d) Mars", "C", "wrong")],
)
def test_latin_c_is_the_third_option(given: str, key: str, expect: str) -> None:
    assert check(given, [key], "choice").outcome == expect


@pytest.mark.parametrize(
    "given, key",
    [
        ("Adele - Hello, Goodbye", {"title": ["Hello"], "artists": [["Adele"]]}),
        ("Queen - Love of My Life, Baby", {"title": ["Love of My Life"], "artists": [["Queen"]]}),
        ("Rihanna, Jay-Z - Umbrella", {"title": ["Umbrella"], "artists": [["Rihanna"]]}),
    ],
)
def test_song_with_a_piece_left_over_goes_to_review(given: str, key: dict) -> None:
    """Rule "nothing left over": another song beginning with the title, or one more act."""
    assert check(given, key, "song").outcome == "review"


def test_song_with_every_piece_matched_stays_correct() -> None:
    key = {"title": ["Lady"], "artists": [["Kenny Rogers"], ["Lionel Richie"]]}
    assert check("Kenny Rogers & Lionel Richie - Lady", key, "song").outcome == "correct"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Бритни - Токсик", {"title": ["Toxic"], "artists": [["Britney Spears"]]}),
        ("Уитни - I Will Always Love You",
         {"title": ["I Will Always Love You"], "artists": [["Whitney Houston"]]}),
        ("Елвис - Jailhouse Rock", {"title": ["Jailhouse Rock"], "artists": [["Elvis Presley"]]}),
    ],
)
def test_performer_first_name_goes_to_review(given: str, key: dict) -> None:
    """Rule "first name for a performer": the title right, the performer by first name."""
    assert check(given, key, "song").outcome == "review"


def test_other_name_of_a_rejected_answer_does_not_veto() -> None:
    """Rule "nearer form": a rejected entry met only as "another name of" it is no match."""
    key = {"accept": ["Пушкин"], "reject": ["Александр"]}
    assert check("Дантес", key, "typo3").outcome == "review"
    assert check("Александр", key, "typo3").outcome == "wrong"


# ------------------------------------------------- class 4: another place one letter off
# (issue 30, fourth pass: tests/checker/data/issue30_heldout2.jsonl)

@pytest.mark.parametrize(
    "given, key",
    [
        ("Дакия", "Дания"),       # Dacia: a consonant no finger slips to, a listed name
        ("Ликия", "Лидия"),       # Lycia for Lydia
        ("Батавия", "Бавария"),
        ("Бразилиа", "Бразилия"),  # the capital: an ending Бразилия never takes
    ],
)
def test_another_listed_name_one_letter_off_is_not_accepted(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "review"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Даниа", "Дания"),       # no list knows it: a typo
        ("Данмя", "Дания"),
        ("Израэль", "Израиль"),   # listed, but a vowel slip
        ("Росия", "Россия"),      # listed, but a dropped double letter
        ("Бразилии", "Бразилия"),  # a form the dictionary lists
        ("картини", "картина"),   # the Bulgarian plural, not another word
    ],
)
def test_slips_of_a_name_stay_accepted(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "correct"


# ------------------------------------------------- classes 5 and 7: the Latin original

@pytest.mark.parametrize(
    "given, key",
    [
        ("Peugeot", "Пежо"),            # one word: by its sound
        ("Renault", "Рено"),
        ("Saint-Germain", "Сен-Жермен"),  # several words: the original or a translation
        ("Crystal Palace", "Хрустальный дворец"),   # ruch17st T1.Q14, Зачёт
        ("Some Like it Hot", "В джазе только девушки"),  # wc13 T2.Q13, Зачёт
    ],
)
def test_latin_original_for_a_cyrillic_key_goes_to_review(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "other_script")
    assert outcome(given, [key], "exact")[0] == "wrong"  # BG-R5.6: exact stays exact


def test_latin_word_that_sounds_unlike_the_key_stays_wrong() -> None:
    assert outcome("Deep Blue", ["Рыбка", "Fish"], "typo3")[0] == "wrong"  # a Latin key
    assert outcome("Q", ["Франциско Скарамангу"], "typo3")[0] == "wrong"
    assert outcome("Shampoo", ["Пирожок"], "typo3")[0] == "wrong"


# ------------------------------------------------- class 6: one word of a phrase replaced

@pytest.mark.parametrize(
    "given, key",
    [
        ("Квантовая физика", "Квантовая механика"),    # rusch16 T3.Q14, Зачёт
        ("Самая долгая ночь", "Самая длинная ночь"),   # rusch16 T5.Q6, Зачёт
        ("Выстрелил в молоко", "Попал в молоко"),      # wc13 T4.Q13, Зачёт
        ("Цикада, муравей", "Стрекоза, муравей"),      # rusch16 T5.Q15, Зачёт
        ("Квантовая химия", "Квантовая механика"),     # another thing: the host refuses it
        ("Гордиевым узлом", "Гордиев узел"),           # the same words in another case
    ],
)
def test_one_word_of_a_phrase_replaced_goes_to_review(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "review"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Артур Кларк", "Артур Хейли"),        # a name for a name: another person
        ("Морской котик с усами", "Морская свинка"),  # more than one word replaced
        ("Теодор Рузвельт", "Франклин Рузвельт"),
    ],
)
def test_one_word_replaced_is_not_every_change(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "wrong"


def test_cldr_other_name_in_parentheses_is_the_same_country() -> None:
    # CLDR: "Мьянма (Бирма)", "Мианмар (Бирма)", "Myanmar (Burma)"
    assert outcome("Мьянма", ["Бирма"], "typo3") == ("correct", "same_name")
    assert outcome("Burma", ["Мианмар"], "typo3") == ("correct", "same_name")
    assert outcome("САР", ["Гонконг"], "typo3")[0] != "correct"  # a qualifier, not a name


# ------------------------------------------------- class 5: rule "known other name"

@pytest.mark.parametrize(
    "given, key",
    [
        ("Шри-Ланка", "Цейлон"),              # a country's present name for its former one
        ("Сиам", "Таиланд"),                  # and the reverse
        ("Cassius Clay", "Muhammad Ali"),      # a birth name for the name he took
        ("Пешков", "Максим Горький"),          # a pen name's real surname
        ("Толбухин", "Добрич"),                # a Bulgarian town's name of 1949-1990
        ("Константинопол", "Стамбул"),         # Bulgarian spelling of an old name
        ("Елин Пелин", "Димитър Стоянов"),     # a pen name for the real name
    ],
)
def test_known_other_name_goes_to_review(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "other_name")


@pytest.mark.parametrize(
    "given, key",
    [
        ("Ирак", "Персия"),          # another country, not in the group
        ("Москва", "Ленинград"),     # another city
        ("Сталин", "Ленин"),         # another person with a table entry of his own
        ("Пушкин", "Максим Горький"),
        ("Бургас", "Дупница"),
    ],
)
def test_known_other_name_is_not_any_other_name(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "wrong"


def test_known_other_name_is_off_in_exact_rounds() -> None:
    assert outcome("Иран", ["Персия"], "exact")[0] == "wrong"  # BG-R5.6


# ------------------------------------------------- classes 5 and 6: rule "same root"

@pytest.mark.parametrize(
    "given, key, code",
    [
        ("Гималаи", "Гималайские горы", "partial_answer"),    # a word of the key left out
        ("Бермудский треугольник", "Бермуды", "extra_words"),  # a word added to the root
        ("Кипрский залив", "Кипр", "extra_words"),
        ("Прокуратура", "Прокурор", "different_word"),       # one word, the same root
        ("Музыкант", "Музыка", "different_word"),
        ("Лаконичность", "Лаконизм", "different_word"),
    ],
)
def test_same_root_goes_to_review(given: str, key: str, code: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", code)


@pytest.mark.parametrize(
    "given, key",
    [
        ("Николаев", "Николай Рубцов"),   # a first name's root is not the person
        ("Желток", "Желтое пятно"),       # a consonant-final word is its own root
        ("Картина", "Картофель"),         # four letters in common are not a root
        ("Рейхсфюрер", "Рейхсмаршал"),    # a shared prefix-morpheme, under its share
        ("Кошка", "Кошкин дом"),          # what is left is a common word, not a name
        ("Стрелец", "Стрекоза"),
    ],
)
def test_same_root_needs_the_whole_root(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "wrong"


# ------------------------------------------------- class 6: a Bulgarian phrase, one word other

@pytest.mark.parametrize(
    "given, key",
    [
        ("Летящият холандец", "Летучий голландец"),   # холандец/голландец: two schools
        ("Смелият Хектор", "Храбрый Гектор"),
        ("Далечният хоризонт", "Дальний горизонт"),
        ("Кралският хоспитал", "Королевский госпиталь"),
    ],
)
def test_bulgarian_phrase_with_one_word_translated_otherwise_goes_to_review(
    given: str, key: str
) -> None:
    assert outcome(given, [key], "typo3") == ("review", "different_word")


@pytest.mark.parametrize(
    "given, key",
    [("Летящият Хендрикс", "Летучий голландец"), ("Смелият Хамлет", "Храбрый Гектор"),
     ("Прочутият хусар", "Знаменитый гусар")],  # хусар/гусар: too short to meet
)
def test_bulgarian_phrase_with_two_words_other_stays_wrong(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "wrong"


# ------------------------------------------------- class 5: rule "translation of a Latin key"

@pytest.mark.parametrize(
    "given, key",
    [
        ("Куда идём?", "Quo vadis?"),
        ("Отче наш", "Pater noster"),
        ("Жребий брошен", "Alea iacta est"),
        ("Новый свет", "New World"),
    ],
)
def test_cyrillic_phrase_for_a_latin_phrase_key_goes_to_review(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "other_script")


def test_translation_of_a_latin_key_needs_a_phrase_and_a_latin_only_key() -> None:
    assert outcome("Пегас", ["Pater noster"], "typo3")[0] == "wrong"        # one word
    assert outcome("Куда идём", ["Quo vadis?", "Камо грядеши"], "typo3")[0] == "wrong"
    assert outcome("Жребий брошен", ["Alea iacta est"], "exact")[0] == "wrong"  # BG-R5.6


# ------------------------------------------------- class 5: rule "byname for an epithet"

@pytest.mark.parametrize(
    "given, key",
    [
        ("Иван Васильевич", "Иван Грозный"),        # a patronymic for the epithet
        ("Харальд Гормссон", "Харальд Синезубый"),   # a father's name, a foreign first name
        ("Фридрих Гогенцоллерн", "Фридрих Великий"),  # the dynasty's name
    ],
)
def test_byname_for_an_epithet_goes_to_review(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "other_name")


@pytest.mark.parametrize(
    "given, key",
    [("Олаф Гормссон", "Харальд Синезубый"),   # another first name: another person
     ("Олаф Трюггвасон", "Харальд Синезубый")],
)
def test_byname_needs_the_same_first_name(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "wrong"


@pytest.mark.parametrize(
    "given, key",
    [("Id", "Id Software"), ("AC", "AC Milan"), ("Microsoft", "Microsoft Corporation")],
)
def test_first_word_of_a_name_goes_to_review(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "partial_answer")


def test_first_word_of_a_lower_case_key_is_no_name() -> None:
    assert outcome("id", ["id software"], "typo3")[0] == "wrong"


@pytest.mark.parametrize(
    "given, key",
    [("Парки", "Мойры"), ("Фурии", "Эринии"), ("Вакх", "Дионис"), ("Эскулап", "Асклепий")],
)
def test_roman_name_of_a_greek_god_goes_to_review(given: str, key: str) -> None:
    """Rule "known other name", interpretatio romana: "Парки" is also the plural of
    "парк", a common word, which rule "plausible other name" rejects."""
    assert outcome(given, [key], "typo3") == ("review", "other_name")


@pytest.mark.parametrize("given, key", [("Парки", "Музы"), ("Фурии", "Грации"), ("Сады", "Мойры")])
def test_roman_name_of_another_god_stays_wrong(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "wrong"


# ------------------------------------------------- class 5: endonyms (CLDR through babel)

@pytest.mark.parametrize(
    "given, key",
    [
        ("Deutschland", "Германия"),
        ("España", "Испания"),
        ("Polska", "Полша"),
        ("Suomi", "Финляндия"),
        ("Wien", "Виена"),
        ("Warszawa", "Варшава"),
        ("Magyarország", "Венгрия"),
    ],
)
def test_endonym_names_the_same_place(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5") == ("correct", "same_name")


@pytest.mark.parametrize(
    "given, key",
    [("Deutschland", "Австрия"), ("Hrvatska", "Сърбия"), ("Suomi", "Швеция"), ("Wien", "Прага")],
)
def test_endonym_of_another_place_stays_wrong(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] == "wrong"


# ------------------------------------- class 5: a first name is no one's fame (sixth pass)

@pytest.mark.parametrize(
    "given, key",
    [("Долорес Гейз", "Лолита"), ("Роберт Циммерман", "Дилан"), ("Мария Склодовская", "Кюри")],
)
def test_full_name_for_a_bare_key_goes_to_review(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "other_name")


@pytest.mark.parametrize(
    "given, key",
    [("Александр Пушкин", "Лермонтов"), ("Христо Ботев", "Левски"), ("Норма Джин", "Монро")],
)
def test_full_name_with_a_well_known_surname_stays_wrong(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "wrong"


# ------------------------------------- class 4: a family, not its member (sixth pass)

@pytest.mark.parametrize(
    "given, key",
    [("Ботеви", "Ботев"), ("Каравелови", "Каравелов"), ("Петровы", "Петров"),
     ("Ботев", "Ботеви"), ("Иванови", "Иванова")],
)
def test_family_plural_of_a_surname_goes_to_review(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "other_form")


@pytest.mark.parametrize(
    "given, key", [("острови", "остров"), ("Ботевъ", "Ботев"), ("Каравелув", "Каравелов")]
)
def test_plural_of_a_common_noun_or_a_slip_is_no_family(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "correct"


# ------------------------------------------ class 2: a century is its number (sixth pass)

@pytest.mark.parametrize(
    "given, key",
    [("XIV век", 14), ("14 в.", 14), ("двадцать первый век", 21), ("19th century", 19),
     ("четиринадесети век", 14), ("XIX столетие", 19)],
)
def test_century_word_after_the_number_is_its_unit(given: str, key: int) -> None:
    assert outcome(given, [key], "number")[0] == "correct"


@pytest.mark.parametrize("given, key", [("XV век", 14), ("XIV век", 1400), ("20 век", 21)])
def test_century_of_another_number_stays_wrong(given: str, key: int) -> None:
    assert outcome(given, [key], "number")[0] == "wrong"


# ------------------------------------------- class 8: looks and sounds alike (sixth pass)

@pytest.mark.parametrize(
    "given, key", [("ATOM", "АТОМ"), ("MAMA", "мама"), ("MAK", "мак"), ("KAKAO", "какао")]
)
def test_lookalike_that_also_sounds_alike_is_the_same_word(given: str, key: str) -> None:
    assert outcome(given, [key], "exact") == ("correct", "lookalike")


# ------------------------------------- class 4: the people, not the place (sixth pass)

@pytest.mark.parametrize(
    "given, key",
    [("аргентинци", "Аргентина"), ("Бразилци", "Бразилия"), ("испанцы", "Испания"),
     ("аргентинец", "Аргентина")],
)
def test_people_of_a_place_are_not_the_place(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "review"


@pytest.mark.parametrize(
    "given, key",
    [("Аргентини", "Аргентина"), ("кофемашинка", "кофемашина"), ("Бразилиия", "Бразилия")],
)
def test_a_slip_in_a_place_or_a_suffix_on_a_common_noun_is_no_demonym(
    given: str, key: str
) -> None:
    assert outcome(given, [key], "typo3")[0] == "correct"


# ----------------------------------------- class 2: a number and its unit (sixth pass)

@pytest.mark.parametrize(
    "given, key",
    [("8 848 м", 8848), ("5 пъти", 5), ("тридесет и три години", 33), ("12 apostles", 12),
     ("сто рублей", 100), ("7 чудес", 7)],
)
def test_number_with_its_unit_is_the_number(given: str, key: int) -> None:
    assert outcome(given, [key], "number")[0] == "correct"


@pytest.mark.parametrize(
    "given, key", [("пет котки", 6), ("7 чудеса", 8), ("5 хиляди", 5), ("три четвърти", 3)]
)
def test_another_number_with_a_unit_or_a_scale_is_not_the_number(given: str, key: int) -> None:
    assert outcome(given, [key], "number")[0] != "correct"


@pytest.mark.parametrize(
    "given, key",
    [("Николь Кидман", ["Бритни Спирс", "Спирс"]), ("Шон Коннери", ["Роджер Мур", "Мур"]),
     ("Джон Леннон", ["Майкл Джексон", "Джексон"])],
)
def test_full_name_of_another_first_name_than_the_keys_full_name_stays_wrong(
    given: str, key: list[str]
) -> None:
    assert outcome(given, key, "typo3")[0] == "wrong"


def test_birth_name_with_the_keys_first_name_still_goes_to_review() -> None:
    assert outcome("Мария Склодовская", ["Мария Кюри", "Кюри"], "typo3") == ("review", "other_name")


# --------------------------------------- class 6: full and short article (sixth pass)

@pytest.mark.parametrize(
    "given, key",
    [("Малкия принц", "Малкият принц"), ("градът", "Града"), ("Коня", "Конят"),
     ("Железният канцлер", "Железния канцлер")],
)
def test_full_and_short_article_are_one_word(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("correct", "article_form")


def test_two_russian_forms_are_no_article_pair() -> None:
    assert outcome("говоря", ["говорят"], "typo3")[0] == "review"


# ------------------------------------------- class 3: Latin options A-D (sixth pass)

@pytest.mark.parametrize(
    "given, key, expected",
    [("B", "B", "correct"), ("b) London", "B", "correct"), ("B) London", "C", "wrong"),
     ("B", "C", "wrong"), ("B", "Б", "correct"), ("B", "В", "review")],
)
def test_latin_b_is_b_for_a_latin_key(given: str, key: str, expected: str) -> None:
    assert outcome(given, [key], "choice")[0] == expected


def test_demonym_of_a_named_place_outside_cldr_goes_to_review() -> None:
    assert outcome("Вашингтонци", ["Вашингтон"], "typo3")[0] == "review"


# ------------------------------------------ class 1: German ei as ей or ай (sixth pass)

@pytest.mark.parametrize(
    "given, key", [("Айнщайн", "Эйнштейн"), ("Райн", "Рейн"), ("Франкенщайн", "Франкенштейн")]
)
def test_german_ei_in_either_school_is_one_name(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] == "correct"


@pytest.mark.parametrize("given, key", [("лайка", "лейка"), ("майка", "мейка")])
def test_common_words_apart_by_ei_are_not_one_name(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] != "correct"


# ------------------------------------------- class 4, seventh pass: names of other things

@pytest.mark.parametrize(
    "given, key",
    [
        ("Уэллс", "Уэльс"),   # H. G. Wells for Wales
        ("Ганна", "Гана"),    # Hanna for Ghana
        ("Савва", "Сава"),    # a name for the river
    ],
)
def test_a_person_is_not_a_place_in_another_convention(given: str, key: str) -> None:
    """Rule "a person is not a place": two spellings the Russian dictionary knows only as
    names of different kinds of thing are not one name in two conventions."""
    assert outcome(given, [key], "typo5")[0] == "review"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Уелс", "Уэльс"),                     # unknown to the dictionary: Bulgarian Wales
        ("Максим Горки", "Максим Горький"),    # Горки is also a common word
        ("Гера", "Хера"),                      # known only as a common word
        ("Марья", "Мария"),                    # two names of one kind
    ],
)
def test_one_name_in_two_conventions_stays_accepted(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] == "correct"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Вольт", "Вольта"),        # the unit, not the physicist
        ("Франций", "Франция"),     # the element, not the country
        ("Германий", "Германия"),   # the element
        ("Галлий", "Галлия"),       # the element
    ],
)
def test_a_name_is_no_case_of_a_noun(given: str, key: str) -> None:
    """Rule "a name is no case of a noun": a capitalised key that the dictionary also
    reads as an oblique case of the noun the answer names is another thing."""
    assert outcome(given, [key], "typo3") == ("review", "different_word")


@pytest.mark.parametrize(
    "given, key",
    [
        ("Спартака", "Спартак"), ("Бразилии", "Бразилия"), ("Франции", "Франция"),
        ("Вольты", "Вольта"),
    ],
)
def test_a_case_form_of_the_key_stays_accepted(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "correct"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Петър Първи", "Пётр Первый"),
        ("Петър", "Пётр"),
        ("Еразъм", "Эразм"),
        ("Херакъл", "Геракл"),
        ("Уинстон Черчилль", "Уинстън Чърчил"),   # one schwa in each word
    ],
)
def test_bulgarian_schwa_word_by_word_and_epenthetic(given: str, key: str) -> None:
    """Rule "Bulgarian epenthetic ъ" and the schwa read word by word (seventh pass)."""
    assert outcome(given, [key], "typo5") == ("correct", "other_convention")


@pytest.mark.parametrize(
    "given, key",
    [("Петър Втори", "Пётр Первый"), ("Павел Първи", "Пётр Первый"), ("Тигър", "Тибр")],
)
def test_another_name_beside_a_schwa_is_no_convention(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] != "correct"


@pytest.mark.parametrize(
    "given, key",
    [("Жул Верн", "Жюль Верн"), ("Жули Дельпи", "Жюли Дельпи"), ("Жуно", "Жюно")],
)
def test_russian_zhyu_is_bulgarian_zhu(given: str, key: str) -> None:
    """Rule "жю/жу" (seventh pass): French /ʒy/ after a hushing consonant."""
    assert outcome(given, [key], "typo5") == ("correct", "other_convention")


@pytest.mark.parametrize("given, key", [("Жук", "Жора"), ("Шура", "Шуба")])
def test_zhu_rule_does_not_join_other_words(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] != "correct"


@pytest.mark.parametrize(
    "given, key",
    [("Уошингтон", "Вашингтон"), ("Джордж Уошингтон", "Джордж Вашингтон"),
     ("Вильямс", "Уильямс"), ("Хайне", "Гейне"), ("Уошингтън", "Вашингтон")],
)
def test_the_old_schools_w_is_one_name_though_russian_text_knows_it(given: str, key: str) -> None:
    """Rule "not one of its forms" reads ending changes only (``_ending_change``)."""
    assert outcome(given, [key], "typo5") == ("correct", "other_convention")


def test_an_ending_change_russian_text_knows_stays_with_the_host() -> None:
    assert outcome("Бразилиа", ["Бразилия"], "typo5")[0] == "review"


# ------------------------------------------------- eighth pass

@pytest.mark.parametrize(
    "given, key",
    [
        ("Пифагор", "Питагор"),           # θ: Russian ф, Bulgarian т
        ("Коринф", "Коринт"),
        ("Фемистокл", "Темистокъл"),      # θ and the epenthetic ъ
        ("Цефей", "Кефей"),               # Latin c before e: Russian ц, Greek κ: к
        ("Цинциннат", "Кинкинат"),
        ("Крылов", "Крилов"),             # Russian ы is Bulgarian и
        ("Фермопилы", "Термопилите"),     # θ, ы and a Bulgarian article
    ],
)
def test_greek_names_through_latin_or_from_greek_are_one_name(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5") == ("correct", "other_convention")
    assert outcome(key, [given], "typo5")[0] == "correct"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Тета", "Фета"),     # the letter for the cheese: both common words
        ("Кирк", "Цирк"),     # a name for a common word
        ("Тон", "Фон"),
        ("Кена", "Цена"),
    ],
)
def test_greek_school_folds_join_no_common_words(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] != "correct"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Железен светилник", "Железният светилник"),   # fleeting е
        ("Малък принц", "Малкият принц"),               # fleeting ъ
        ("Добър войник Швейк", "Добрият войник Швейк"),
        ("Светлия път", "Светъл път"),                  # the short article, the other way
        ("Български лев", "Българският лев"),           # -ят after the adjective's -и
        ("Синия Дунав", "Син Дунав"),
    ],
)
def test_a_bulgarian_adjective_with_or_without_its_article_is_one_word(
    given: str, key: str
) -> None:
    assert outcome(given, [key], "typo5") == ("correct", "article_form")


@pytest.mark.parametrize(
    "given, key",
    [
        ("Инд", "Индия"),              # a last word is no adjective
        ("Белият зъб", "Бял зъб"),     # another vowel: no fleeting one
        ("Малък народ", "Малкият принц"),
    ],
)
def test_the_adjective_article_rule_reads_only_an_adjective_before_a_word(
    given: str, key: str
) -> None:
    assert outcome(given, [key], "typo5") != ("correct", "article_form")


@pytest.mark.parametrize(
    "given, key",
    [
        ("Алън Кьонигсбърг", "Вуди Алън"),          # the birth first name became the surname
        ("Хенри Джон Дойчендорф", "Джон Денвър"),   # the birth middle name became the first
        ("Джордж О'Дауд", "Бой Джордж"),
    ],
)
def test_a_birth_name_that_lent_the_stage_name_a_word_goes_to_the_host(
    given: str, key: str
) -> None:
    assert outcome(given, [key], "typo5") == ("review", "other_name")


@pytest.mark.parametrize(
    "given, key",
    [
        ("Марк Аврелий", "Марк Твен"),
        ("The Byrds", "The Beatles"),
        ("Анатолий Белкин", "Анатолий Вассерман"),
    ],
)
def test_a_word_shared_in_the_same_place_is_another_bearer(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] == "wrong"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Сергей Прокофьев", "Сергей Прокофиев"),   # ь before е: Bulgarian и
        ("Данте Алигьери", "Данте Алигиери"),
        ("Тьерри Анри", "Тиери Анри"),
        ("Майя Плисецкая", "Мая Плисецкая"),         # йя: Bulgarian я
        ("Айя Напа", "Ая Напа"),
        ("Исаак Ньютон", "Исак Нютон"),              # a doubled vowel written once
        ("Гаага", "Хага"),
        ("Ватерлоо", "Ватерло"),
    ],
)
def test_russian_soft_sign_yya_and_double_vowels_meet_the_bulgarian_spelling(
    given: str, key: str
) -> None:
    assert outcome(given, [key], "typo5")[0] == "correct"
    assert outcome(key, [given], "typo5")[0] == "correct"


@pytest.mark.parametrize(
    "given, key",
    [("Поль Гоген", "Пол Гоген"), ("Эль Греко", "Ел Греко"), ("Жанна Моро", "Жана Моро")],
)
def test_a_first_name_beside_its_surname_is_no_common_word(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5") == ("correct", "other_convention")


@pytest.mark.parametrize("given, key", [("Хора", "Гора"), ("Пол", "Поль")])
def test_two_common_words_alone_stay_with_the_host(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] != "correct"


@pytest.mark.parametrize(
    "given, key",
    [("Стравинский", "Стравински"), ("Лобачевский", "Лобачевски"), ("Вишневский", "Вишневски")],
)
def test_the_russian_ski_for_a_key_written_the_bulgarian_way_is_its_spelling(
    given: str, key: str
) -> None:
    assert outcome(given, [key], "typo5")[0] == "correct"


# ------------------- class 4, ninth pass: rule "a spelling of another name"

@pytest.mark.parametrize(
    "given, key",
    [
        ("Ленон", "Ленин"),      # Леннон with one н
        ("Леннин", "Леннон"),    # Ленин with a doubled н
        ("Кюрри", "Кэрри"),      # Кюри
        ("Каннт", "Канны"),      # Кант
        ("Даллия", "Галлия"),    # Далия
    ],
)
@pytest.mark.parametrize("mode", ["typo3", "typo5"])
def test_a_spelling_of_another_famous_name_goes_to_the_host(
    given: str, key: str, mode: str
) -> None:
    assert outcome(given, [key], mode) == ("review", "different_name")


@pytest.mark.parametrize(
    "given, key",
    [
        ("Росия", "Россия"),        # the key itself, undoubled
        ("Мюлер", "Мюллер"),
        ("Ленинн", "Ленин"),
        ("Ленон", "Леннон"),
        ("Израэль", "Израиль"),     # a vowel, no other name
        ("Голандия", "Холандия"),   # Голландия: the same country in the Russian school
        ("Ленинъ", "Ленин"),
    ],
)
def test_a_slip_of_the_key_itself_stays_a_typo(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "correct"


def test_a_spelling_of_another_name_needs_a_name_key() -> None:
    """Common words keep their own rules ("Туннис" for "Теннис" is a slip of the word)."""
    assert outcome("Туннис", ["теннис"], "typo3")[0] == "correct"


def test_another_name_of_the_key_is_no_other_name() -> None:
    """Белоруссия is Беларус by the table of other names (``aliases``)."""
    assert outcome("Белорусия", ["Беларус"], "typo3")[1] != "different_name"


# ------------------------------------------------- tenth pass

@pytest.mark.parametrize(
    "given, key",
    [
        ("Хиросима", "Хирошима"),      # Поливанов's си, the Bulgarian ши
        ("Тосиба", "Тошиба"),
        ("Шогун", "Сёгун"),             # сё / шо
        ("Ичиро", "Итиро"),             # ти / чи
        ("Шиндзо Абе", "Синдзо Абэ"),
        ("Сузуки", "Судзуки"),          # дз / з
    ],
)
def test_japanese_names_in_the_two_schools_are_one_name(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5") == ("correct", "other_convention")


@pytest.mark.parametrize(
    "given, key", [("Сила", "Шила"), ("Тай", "Чай"), ("Сива", "Шива")]
)
def test_the_japanese_schools_do_not_join_two_words(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5")[0] == "review"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Хрущёв", "Хрушчов"),          # щ / шч and ё / о after a husher
        ("Щедрин", "Шчедрин"),
        ("Пугачёва", "Пугачова"),
        ("Мао Дзедун", "Мао Цзэдун"),   # Палладий's цз, the Bulgarian дз
        ("Лао Дзъ", "Лао-цзы"),
    ],
)
def test_russian_and_chinese_names_in_their_bulgarian_spelling(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5") == ("correct", "other_convention")


@pytest.mark.parametrize("given, key", [("CSKA", "ЦСКА"), ("Cska", "ЦСКА")])
def test_the_slavic_c_in_latin_typing_is_ts(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "correct"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Капитанскую дочку", "Капитанская дочка"),
        ("Пиковую даму", "Пиковая дама"),
        ("Мёртвых душ", "Мёртвые души"),
        ("Белую гвардию", "Белая гвардия"),
        ("Ивана Петрова", "Иван Петров"),
    ],
)
def test_a_russian_title_in_another_case_is_the_title(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "correct"


@pytest.mark.parametrize(
    "given, key",
    [("Иван Петрова", "Иван Петров"), ("Красный ворот", "Красные ворота")],
)
def test_another_gender_or_number_is_no_case_of_the_title(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] in ("review", "wrong")


def test_a_bulgarian_spelling_of_another_famous_name_goes_to_the_host() -> None:
    assert outcome("Ленън", ["Ленин"], "typo3") == ("review", "different_word")
    assert outcome("Ленън", ["Леннон"], "typo3")[0] == "correct"
    assert outcome("Нютън", ["Ньютон"], "typo3")[0] == "correct"


@pytest.mark.parametrize(
    "given, number",
    [
        ("полторы тысячи", 1500),
        ("полтора миллиона", 1_500_000),
        ("полутора тысяч", 1500),
        ("полтораста", 150),
        ("хиляда и половина", 1500),
        ("милион и половина", 1_500_000),
    ],
)
def test_one_and_a_half_of_a_scale_word(given: str, number: int) -> None:
    assert outcome(given, [number], "number")[0] == "correct"


@pytest.mark.parametrize("given", ["две и половина", "two and a half", "полтора"])
def test_a_half_is_no_unit(given: str) -> None:
    assert outcome(given, [2], "number")[0] == "review"


def test_a_performer_alone_in_cyrillic_is_no_doubtful_title() -> None:
    key = {"title": ["Beautiful Mess"], "artists": [["Kristian Kostov"]]}
    v = check("Кристиан Костов", key, "song")
    assert (v.outcome, v.code) == ("partial", "song_performers_only")


@pytest.mark.parametrize(
    "given, key",
    [
        ("Борис III", "Цар Борис III"),
        ("Цар Борис Трети", "Борис III"),
        ("King Henry VIII", "Henry VIII"),
        ("Йоан Павел II", "Папа Йоан Павел II"),
        ("Королева Елизавета II", "Елизавета II"),
    ],
)
def test_a_rulers_title_before_a_numbered_name_adds_nothing(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "correct"


@pytest.mark.parametrize(
    "given, key",
    [("Соло", "Хан Соло"), ("Лев", "Король Лев"), ("Цар Симеон II", "Цар Борис III")],
)
def test_a_title_is_dropped_only_before_a_regnal_number(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] in ("review", "wrong")


@pytest.mark.parametrize(
    "given", ["IX в.", "9-ти век", "IX-ти век", "IX столетие", "девети век"]
)
def test_a_century_in_a_text_is_its_number_and_unit(given: str) -> None:
    assert outcome(given, ["IX век"], "typo3") == ("correct", "number_in_words")


@pytest.mark.parametrize("given", ["X век", "IX"])
def test_another_century_or_a_bare_numeral_is_not_the_century(given: str) -> None:
    assert outcome(given, ["IX век"], "typo3")[0] in ("review", "wrong")


@pytest.mark.parametrize("given", ["Отговор: Б) Родопи", "отг. Б", "отг.Б", "Ответ: б"])
def test_the_answer_word_before_a_choice_is_no_part_of_it(given: str) -> None:
    assert outcome(given, ["Б", "Родопи"], "choice") == ("correct", "right_option")


def test_the_answer_word_keeps_another_option_another() -> None:
    assert outcome("Отговор: В) Пирин", ["Б", "Родопи"], "choice")[0] == "wrong"
    assert outcome("Отговор", ["Б", "Родопи"], "choice")[0] == "review"


@pytest.mark.parametrize(
    "given, key", [("Bohemian Rapsody", "Bohemian Rhapsody"), ("Gandi", "Gandhi")]
)
def test_an_english_silent_h_left_out_is_a_typo(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5") == ("correct", "spelling_errors")


@pytest.mark.parametrize("given, key", [("Tree", "Three"), ("Tin", "Thin")])
def test_a_common_word_without_the_h_stays_another_word(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "review"


@pytest.mark.parametrize(
    "given, key",
    [
        ("Уолт Уитман", "Уолт Уитмен"),        # English -man: ru -мен, bg -ман
        ("Пол Ньюмен", "Пол Нюман"),
        ("Шарл дьо Гол", "Шарль де Голль"),    # French de: ru де, bg дьо
        ("Льо Корбюзие", "Ле Корбюзие"),
    ],
)
def test_english_man_and_french_de_in_the_two_schools(given: str, key: str) -> None:
    assert outcome(given, [key], "typo5") == ("correct", "other_convention")


def test_a_common_word_ending_in_man_is_no_school_spelling() -> None:
    assert outcome("Карман", ["Кармен"], "typo5")[0] == "review"


@pytest.mark.parametrize(
    "given, number",
    [("a million", 1_000_000), ("a hundred", 100), ("a thousand and one", 1001),
     ("a dozen", 12)],
)
def test_the_english_article_before_a_hundred_is_one(given: str, number: int) -> None:
    assert outcome(given, [number], "number")[0] == "correct"


def test_the_article_alone_is_no_number() -> None:
    assert outcome("a", [1], "number")[0] == "review"
    assert outcome("a million", [1000], "number")[0] == "wrong"


@pytest.mark.parametrize(
    "given, key", [("Гърци", "Гърция"), ("Сърби", "Сърбия"), ("Чехи", "Чехия"), ("Сербы", "Сербия")]
)
def test_the_people_without_the_countrys_ending_is_no_country(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "different_word")


@pytest.mark.parametrize("given, key", [("Тервела", "Тервел"), ("Таксито", "Такси")])
def test_an_article_after_a_consonant_or_a_neuter_one_stays_an_article(
    given: str, key: str
) -> None:
    assert outcome(given, [key], "typo3") == ("correct", "article_form")


@pytest.mark.parametrize("given, key", [("✓", "вярно"), ("✅", "вярно"), ("❌", "невярно")])
def test_a_check_mark_or_a_cross_is_true_or_false(given: str, key: str) -> None:
    assert outcome(given, [key], "choice") == ("correct", "right_option")


def test_a_check_mark_for_a_false_key_is_the_other_option() -> None:
    assert outcome("✓", ["невярно"], "choice") == ("wrong", "other_option")


@pytest.mark.parametrize("given", ["MCMXLIV", "1944 г."])
def test_a_whole_roman_numeral_for_a_number_key(given: str) -> None:
    assert outcome(given, ["1944"], "typo3") == ("correct", "number_in_words")


@pytest.mark.parametrize("given", ["44", "'44", "44-та", "сорок четвёртый"])
def test_a_years_last_two_digits_go_to_the_host(given: str) -> None:
    assert outcome(given, ["1944"], "typo3") == ("review", "partial_answer")
    assert outcome(given, ["1944"], "exact")[0] == "wrong"


@pytest.mark.parametrize("given", ["45", "MCMXLV", "1844"])
def test_another_year_stays_another(given: str) -> None:
    assert outcome(given, ["1944"], "typo3")[0] == "wrong"


# ------------------------------------------------------ eleventh pass (classes 4 and 5)

@pytest.mark.parametrize(
    "given, key",
    [("Saksa", "Германия"), ("Espanja", "Испания"), ("Ruotsi", "Швеция"),
     ("Tyskland", "Германия")],
)
def test_a_countrys_name_in_another_language_of_cldr_is_the_country(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("correct", "same_name")


@pytest.mark.parametrize("given, key", [("Saksa", "Франция"), ("Tyskland", "Дания")])
def test_another_countrys_foreign_name_stays_wrong(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "wrong"


def test_a_foreign_name_read_as_a_rare_words_case_may_be_a_name() -> None:
    from answerdesk.checker import lexicon

    assert lexicon.oblique_only("акира") and lexicon.oblique_only("мономах")
    assert not lexicon.oblique_only("крыс") and not lexicon.oblique_only("кошки")


@pytest.mark.parametrize(
    "given, key",
    [
        ("Царь-Освободитель", "Александр II"),
        ("Чёрный принц", "Эдуард Вудсток"),
        ("Святой равноапостольный", "Владимир I"),
    ],
)
def test_an_epithet_for_a_name_goes_to_the_host(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "other_name")


@pytest.mark.parametrize(
    "given, key",
    [("Красная площадь", "Кремль"), ("Анна Каренина", "Анна Ахматова"),
     ("Белого Всадника", "Дионисий")],
)
def test_no_epithet_for_a_thing_a_shared_word_or_an_oblique_case(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "wrong"


@pytest.mark.parametrize("given, key", [("Робън", "Робин"), ("Мартън", "Мартин"),
                                        ("Кевън", "Кевин")])
def test_a_bulgarian_schwa_for_i_is_another_name(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "different_word")


@pytest.mark.parametrize("given, key", [("Кеплър", "Кеплер"), ("Хъксли", "Хаксли")])
def test_a_bulgarian_schwa_for_e_or_a_stays_the_name(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3")[0] == "correct"


@pytest.mark.parametrize("given, key", [("Хелиос", "Хелиум"), ("Вектор", "Виктор")])
def test_two_english_words_in_cyrillic_are_two_words(given: str, key: str) -> None:
    assert outcome(given, [key], "typo3") == ("review", "different_word")


def test_a_slip_that_reads_as_no_english_word_stays_a_slip() -> None:
    assert outcome("Хидрогин", ["Хидроген"], "typo3")[0] == "correct"
